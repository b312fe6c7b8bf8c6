import { describe, expect, test } from 'bun:test';
import { coachSignups } from '../../src/db/schema.ts';
import { signUpForCoach } from '../../src/domain/catalog/coach.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { testApp } from '../helpers/app.ts';
import { count } from '../helpers/html.ts';

const THANKS = "Thanks! We'll e-mail you when Coach launches.";
const THANKS_HTML = 'Thanks! We&#x27;ll e-mail you when Coach launches.';

function rows(db: Awaited<ReturnType<typeof testApp>>['db']) {
  return db.select().from(coachSignups).all();
}

describe('signUpForCoach', () => {
  test('stores a trimmed, lower-case address once; a repeat in any case is not an error', async () => {
    const { db, clock } = await testApp();
    expect(signUpForCoach(db, clock, '  Fan@Example.COM ')).toEqual({ email: 'fan@example.com', created: true });
    expect(signUpForCoach(db, clock, 'fan@example.com')).toEqual({ email: 'fan@example.com', created: false });
    expect(rows(db)).toEqual([{ id: 1, email: 'fan@example.com', createdAt: clock.now() }]);
  });

  test('refuses anything that is not an e-mail address', async () => {
    const { db, clock } = await testApp();
    for (const bad of [undefined, null, '', '   ', 'not-an-email', 'a@b', 42, `${'x'.repeat(250)}@example.com`]) {
      let caught: unknown;
      try {
        signUpForCoach(db, clock, bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DomainError);
      expect((caught as DomainError).status).toBe(400);
      expect((caught as DomainError).message).toBe('Please enter a valid email');
    }
    expect(rows(db)).toHaveLength(0);
  });
});

describe('POST /api/coach/signups', () => {
  test('a new address: 201 and one row', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/api/coach/signups', { json: { email: 'New.Fan@Example.com' } });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ email: 'new.fan@example.com', alreadySubscribed: false, message: THANKS });
    expect(rows(db).map((r) => r.email)).toEqual(['new.fan@example.com']);
  });

  test('the same address in another case: 200 with the same thank-you, still one row', async () => {
    const { client, db } = await testApp();
    const c = client();
    expect((await c.post('/api/coach/signups', { json: { email: 'fan@example.com' } })).status).toBe(201);
    const again = await c.post('/api/coach/signups', { json: { email: 'FAN@Example.com' } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ email: 'fan@example.com', alreadySubscribed: true, message: THANKS });
    expect(rows(db)).toHaveLength(1);
  });

  test('an invalid address: 400 with the message and the field', async () => {
    const { client, db } = await testApp();
    for (const json of [{ email: 'nope' }, { email: '' }, {}, { email: ['a@b.co'] }]) {
      const response = await client().post('/api/coach/signups', { json });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: 'Please enter a valid email', fields: { email: 'Please enter a valid email' } });
    }
    expect(rows(db)).toHaveLength(0);
  });

  test('a body that is not a JSON object is refused', async () => {
    const { client } = await testApp();
    expect((await client().post('/api/coach/signups', { json: ['a@b.co'] })).status).toBe(400);
    expect((await client().post('/api/coach/signups', { body: 'email=a@b.co', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  test('a cross-site post is refused', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/api/coach/signups', { json: { email: 'x@example.com' }, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(rows(db)).toHaveLength(0);
  });
});

describe('POST /coach/signup (the form, without JavaScript)', () => {
  test('a valid address: stored, redirected back with a flash toast, and the thank-you on the page', async () => {
    const { client, db } = await testApp();
    const c = client();
    const response = await c.post('/coach/signup', { form: { email: 'Reader@Example.com', next: '/coach/instagram' } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/coach/instagram?subscribed=1');
    expect(rows(db).map((r) => r.email)).toEqual(['reader@example.com']);

    const page = await c.get('/coach/instagram?subscribed=1');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('role="status"');
    expect(html).toContain(THANKS_HTML);
    expect(html).not.toContain('action="/coach/signup"');
    // The flash toast rides along once.
    expect(html).toContain('data-island="Toaster"');
    expect(html).toContain('on the list');
    const again = await (await c.get('/coach/instagram?subscribed=1')).text();
    expect(again).not.toContain('data-island="Toaster"');
  });

  test('an address already signed up (other case) gets the same thank-you and no second row', async () => {
    const { client, db } = await testApp();
    const c = client();
    await c.post('/coach/signup', { form: { email: 'reader@example.com', next: '/coach' } });
    const response = await c.post('/coach/signup', { form: { email: 'READER@example.com', next: '/coach' } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/coach?subscribed=1');
    expect(await (await c.get('/coach?subscribed=1')).text()).toContain('already on the list');
    expect(rows(db)).toHaveLength(1);
  });

  test('an invalid address: 400, the same page with the field message and the typed value', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/coach/signup', { form: { email: 'not-an-email', next: '/coach/tiktok' } });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Coach is coming soon');
    expect(html).toContain('Influencer coaching for TikTok');
    expect(html).toContain('<p id="coach-email-error"');
    expect(html).toContain('Please enter a valid email');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="coach-email-error"');
    expect(html).toContain('value="not-an-email"');
    expect(html).toContain('<input type="hidden" name="next" value="/coach/tiktok"/>');
    expect(count(html, '[href="/coach"][aria-current="page"]')).toBeGreaterThan(0);
    expect(rows(db)).toHaveLength(0);
  });

  test('an empty post is a 400 with the message', async () => {
    const { client } = await testApp();
    const response = await client().post('/coach/signup', { form: { next: '/coach' } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Please enter a valid email');
  });

  test('next only ever leads back to a coach page', async () => {
    const { client } = await testApp();
    for (const next of ['https://evil.example/', '//evil.example', '/admin', '/coach/facebook', '']) {
      const response = await client().post('/coach/signup', { form: { email: `n${next.length}@example.com`, next } });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/coach?subscribed=1');
    }
  });

  test('a cross-site form post is refused', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/coach/signup', { form: { email: 'x@example.com', next: '/coach' }, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(rows(db)).toHaveLength(0);
  });
});
