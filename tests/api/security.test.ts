import { describe, expect, test } from 'bun:test';
import { testApp } from '../helpers/app.ts';

describe('CSRF', () => {
  test('a cross-origin form post is refused and changes nothing', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/auth/register', {
      form: { username: 'victim', password: 'secret-pass', confirmPassword: 'secret-pass' },
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect((db.$client.query('select count(*) as n from users').get() as { n: number }).n).toBe(0);
  });

  test('a form post with no Origin and no Sec-Fetch-Site is refused', async () => {
    const { client } = await testApp();
    const response = await client().post('/logout', { form: {}, headers: { origin: '' } });
    expect(response.status).toBe(403);
  });

  test('a cross-origin JSON post is refused too', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/api/register', {
      json: { username: 'victim', password: 'secret-pass' },
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe('Cross-site request refused.');
    expect((db.$client.query('select count(*) as n from users').get() as { n: number }).n).toBe(0);
  });

  test('Sec-Fetch-Site: cross-site is refused even without an Origin header', async () => {
    const { client } = await testApp();
    const response = await client().post('/api/login', {
      json: { username: 'a', password: 'secret-pass' },
      headers: { origin: '', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
  });

  test('a same-origin form post is accepted', async () => {
    const { client } = await testApp();
    const response = await client().post('/auth/register', {
      form: { username: 'local', password: 'secret-pass', confirmPassword: 'secret-pass' },
    });
    expect(response.status).toBe(303);
  });
});

describe('rate limits', () => {
  test('10 failed logins for one username from one address make that address wait 15 minutes with a 429, even with the right password', async () => {
    const { client, clock } = await testApp();
    const c = client();
    await c.post('/api/register', { json: { username: 'target', password: 'right-pass' } });
    await c.post('/api/logout');
    for (let i = 0; i < 10; i++) {
      const wrong = await c.post('/api/login', { json: { username: 'target', password: `wrong-${i}-pass` } });
      expect(wrong.status).toBe(401);
    }
    const blocked = await c.post('/api/login', { json: { username: 'target', password: 'right-pass' } });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toBe('Too many failed login attempts. Please try again in 15 minutes.');
    clock.advance(15 * 60 * 1000 + 1);
    const after = await c.post('/api/login', { json: { username: 'target', password: 'right-pass' } });
    expect(after.status).toBe(200);
  });

  test('registrations are limited to 30 an hour per address', async () => {
    const { client, db } = await testApp();
    const c = client();
    for (let i = 0; i < 30; i++) {
      const ok = await c.post('/api/register', { json: { username: `user${i}`, password: 'secret-pass' } });
      expect(ok.status).toBe(201);
    }
    const blocked = await c.post('/api/register', { json: { username: 'user30', password: 'secret-pass' } });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toBe('Too many registrations from this network. Please try again in 60 minutes.');
    expect((db.$client.query('select count(*) as n from users').get() as { n: number }).n).toBe(30);
    // 30 password hashes at production cost: seconds on a busy 2-core machine.
  }, 30_000);

  test('RATE_LIMIT=off turns the limits off', async () => {
    const { client } = await testApp({ RATE_LIMIT: 'off' });
    const c = client();
    for (let i = 0; i < 12; i++) {
      const wrong = await c.post('/api/login', { json: { username: 'someone', password: 'wrong-pass' } });
      expect(wrong.status).toBe(401);
    }
    // Twelve production-cost password checks: room for a busy machine.
  }, 30_000);
});

describe('headers and health', () => {
  test('pages carry secure headers and a CSP without outside script origins', async () => {
    const { client } = await testApp();
    const response = await client().get('/');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('squarecdn');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  test('with the square gateway the CSP allows only the Square origins of its environment', async () => {
    const { client } = await testApp({ SQUARE_ACCESS_TOKEN: 'token', SQUARE_LOCATION_ID: 'L1', SQUARE_ENVIRONMENT: 'sandbox' });
    const csp = (await client().get('/')).headers.get('content-security-policy')!;
    expect(csp).toContain('https://sandbox.web.squarecdn.com');
    expect(csp).not.toContain('https://web.squarecdn.com');
  });

  test('GET /healthz answers 200 when the database is reachable, 503 when not', async () => {
    const { client, db } = await testApp();
    const ok = await client().get('/healthz');
    expect(ok.status).toBe(200);
    expect((await ok.json()).database).toBe('ok');
    db.$client.close();
    const down = await client().get('/healthz');
    expect(down.status).toBe(503);
  });

  test('hashed assets are cached for a year, static files for a day, and paths cannot escape', async () => {
    const { client } = await testApp();
    const { testManifest } = await import('../helpers/app.ts');
    const manifest = await testManifest();
    const css = await client().get(manifest.css);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(css.headers.get('content-type')).toContain('text/css');
    const icon = await client().get('/static/favicon.svg');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=86400');
    for (const path of ['/static/../package.json', '/static/%2e%2e/package.json', '/assets/..%2fmanifest.json']) {
      expect((await client().get(path)).status).toBe(404);
    }
  });
});
