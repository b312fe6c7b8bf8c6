import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { sessions } from '../../src/db/schema.ts';
import { TestClient, testApp } from '../helpers/app.ts';

async function registered(env?: Record<string, string>) {
  const ctx = await testApp(env);
  const client = ctx.client();
  const response = await client.post('/api/register', { json: { username: 'shopper1', password: 'secret-pass' } });
  expect(response.status).toBe(201);
  return { ...ctx, client };
}

describe('POST /api/register', () => {
  test('creates the account, signs it in and returns id, username, isAdmin', async () => {
    const { client } = await registered();
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    const user = await me.json();
    expect(user).toEqual({ id: expect.any(Number), username: 'shopper1', isAdmin: false });
  });

  test('a taken username, in any case, gets 409 with a clear message and no second account', async () => {
    const { app, client, db } = await registered();
    const again = await client.post('/api/register', { json: { username: 'SHOPPER1', password: 'another-pass' } });
    expect(again.status).toBe(409);
    const body = await again.json();
    expect(body.message).toBe('That username is already taken. Please choose another.');
    expect(body.fields.username).toBe(body.message);
    const count = db.$client.query('select count(*) as n from users').get() as { n: number };
    expect(count.n).toBe(1);
    // The first account still signs in with its own password; the refused one's never worked.
    const login = (password: string) => new TestClient(app).post('/api/login', { json: { username: 'shopper1', password } });
    expect((await login('secret-pass')).status).toBe(200);
    expect((await login('another-pass')).status).toBe(401);
  });

  test.each([
    [{ password: 'secret-pass' }, 'username', 'Username is required'],
    [{ username: '   ', password: 'secret-pass' }, 'username', 'Username is required'],
    [{ username: 'newbie', password: 'short' }, 'password', 'Password must be at least 6 characters'],
    [{ username: 'newbie' }, 'password', 'Password must be at least 6 characters'],
    [{ username: 'has space', password: 'secret-pass' }, 'username', 'Username can only use letters, numbers, dots, dashes and underscores'],
    [{ username: 'x'.repeat(33), password: 'secret-pass' }, 'username', 'Username must be at most 32 characters'],
  ])('rejects %j with the field message', async (payload, field, message) => {
    const { client, db } = await testApp();
    const response = await client().post('/api/register', { json: payload });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.fields[field]).toBe(message);
    expect(body.message).toBe(message);
    expect((db.$client.query('select count(*) as n from users').get() as { n: number }).n).toBe(0);
  });

  test('stores an argon2id hash, never the password', async () => {
    const { db } = await registered();
    const row = db.$client.query('select password_hash from users').get() as { password_hash: string };
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(row.password_hash).not.toContain('secret-pass');
  });
});

describe('POST /api/login', () => {
  test('the right password signs in and returns the user', async () => {
    const { app } = await registered();
    const { TestClient } = await import('../helpers/app.ts');
    const fresh = new TestClient(app);
    const response = await fresh.post('/api/login', { json: { username: 'Shopper1', password: 'secret-pass' } });
    expect(response.status).toBe(200);
    expect((await response.json()).username).toBe('shopper1');
    expect((await fresh.get('/api/user')).status).toBe(200);
  });

  test('a wrong password gets 401 and no session', async () => {
    const { app } = await registered();
    const { TestClient } = await import('../helpers/app.ts');
    const fresh = new TestClient(app);
    const response = await fresh.post('/api/login', { json: { username: 'shopper1', password: 'wrong-pass' } });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe('Invalid username or password');
    expect(fresh.cookies.size).toBe(0);
    expect((await fresh.get('/api/user')).status).toBe(401);
  });

  test('an unknown username gets the same answer as a wrong password', async () => {
    const { client } = await testApp();
    const response = await client().post('/api/login', { json: { username: 'nobody', password: 'secret-pass' } });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe('Invalid username or password');
  });

  test.each([
    [{ username: '', password: 'secret-pass' }, 'username', 'Username is required'],
    [{ username: 'shopper1', password: '12345' }, 'password', 'Password must be at least 6 characters'],
  ])('rejects %j with the field message', async (payload, field, message) => {
    const { client } = await testApp();
    const response = await client().post('/api/login', { json: payload });
    expect(response.status).toBe(400);
    expect((await response.json()).fields[field]).toBe(message);
  });

  test('a new session replaces the old one on login', async () => {
    const { client, db } = await registered();
    const before = client.cookies.get('csa_session');
    await client.post('/api/login', { json: { username: 'shopper1', password: 'secret-pass' } });
    const after = client.cookies.get('csa_session');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(db.select().from(sessions).all()).toHaveLength(1);
  });
});

describe('sessions and logout', () => {
  test('GET /api/user is 401 before sign-in and after logout', async () => {
    const { client: makeClient } = await testApp();
    const client = makeClient();
    expect((await client.get('/api/user')).status).toBe(401);
    await client.post('/api/register', { json: { username: 'walker', password: 'secret-pass' } });
    expect((await client.get('/api/user')).status).toBe(200);
    const token = client.cookies.get('csa_session')!;
    const out = await client.post('/api/logout');
    expect(out.status).toBe(200);
    expect(client.cookies.has('csa_session')).toBe(false);
    expect((await client.get('/api/user')).status).toBe(401);
    // The old token is dead on the server too, not only forgotten by the browser.
    client.cookies.set('csa_session', token);
    expect((await client.get('/api/user')).status).toBe(401);
  });

  test('the cookie is HttpOnly and SameSite=Lax, and only the token hash is stored', async () => {
    const { client: makeClient, db } = await testApp();
    const client = makeClient();
    const response = await client.post('/api/register', { json: { username: 'cookie', password: 'secret-pass' } });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('csa_session='))!;
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');
    const token = client.cookies.get('csa_session')!;
    const row = db.select().from(sessions).get()!;
    expect(row.id).not.toBe(token);
    expect(row.id).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the cookie is Secure when the store is served over https', async () => {
    const { client } = await testApp({ PUBLIC_URL: 'https://shop.example', METRICS_TOKEN: 'scrape-token' });
    const response = await client().post('/api/register', { json: { username: 'secure', password: 'secret-pass' } });
    expect(response.headers.getSetCookie().join('\n')).toContain('Secure');
  });

  test('an expired session is refused and removed', async () => {
    const { client, clock, db } = await registered();
    clock.advance(31 * 24 * 60 * 60 * 1000);
    expect((await client.get('/api/user')).status).toBe(401);
    expect(db.select().from(sessions).all()).toHaveLength(0);
  });

  test('a session in use is extended when less than 7 days remain (14-day sessions)', async () => {
    const { client, clock, db } = await registered();
    const before = db.select().from(sessions).get()!;
    clock.advance(8 * 24 * 60 * 60 * 1000);
    const response = await client.get('/api/user');
    expect(response.status).toBe(200);
    const after = db.select().from(sessions).where(eq(sessions.id, before.id)).get()!;
    expect(after.expiresAt).toBe(clock.now() + 14 * 24 * 60 * 60 * 1000);
    expect(response.headers.getSetCookie().some((line) => line.startsWith('csa_session='))).toBe(true);
  });
});

describe('bad requests change nothing', () => {
  test('a body that is not JSON gets 415, broken JSON 400', async () => {
    const { client } = await testApp();
    const c = client();
    const text = await c.post('/api/register', { body: 'username=a', headers: { 'content-type': 'text/csv' } });
    expect(text.status).toBe(415);
    expect((await text.json()).message).toContain('JSON');
    const broken = await c.post('/api/register', { body: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((await broken.json()).message).toBe('The request body is not valid JSON.');
  });

  test('a huge body gets 413', async () => {
    const { client, db } = await testApp();
    const response = await client().post('/api/register', { json: { username: 'big', password: 'x'.repeat(200_000) } });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe('The request body is too large.');
    expect((db.$client.query('select count(*) as n from users').get() as { n: number }).n).toBe(0);
  });

  test('an unknown API path answers JSON 404', async () => {
    const { client } = await testApp();
    const response = await client().get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe('Not found');
  });
});
