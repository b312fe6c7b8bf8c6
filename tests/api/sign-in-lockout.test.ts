import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { accountTokens, emailOutbox, users } from '../../src/db/schema.ts';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { createAccountLimits, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS } from '../../src/domain/accounts/account-limits.ts';
import { logIn } from '../../src/domain/accounts/accounts.ts';
import { SCRUBBED } from '../../src/domain/mail/sender.ts';
import { UNLOCK_LINK_INVALID } from '../../src/domain/accounts/sign-in-unlock.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { parseHtml, textOf, toastOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/*
 * Issue 25, row 5: ten wrong passwords from anywhere kept any account, the admin's included, out
 * for 15 minutes. Now only the address that failed waits; the owner is e-mailed an unlock link.
 * A test client's requests all come from one address ('local'); other addresses sign in through
 * the same domain function the routes call, on the same database and limits.
 */

const MINUTES_15 = 15 * 60_000;

/** Signs in as the routes do, from the given address. */
function signInFrom(ctx: TestApp, ip: string, username: string, password: string) {
  const deps = { db: ctx.db, clock: ctx.clock, passwords: ctx.passwords, limits: createAccountLimits(ctx.db, ctx.clock, true) };
  return logIn(deps, { username, password }, ip).then(
    (user) => ({ status: 200, user }),
    (error: { status?: number; message: string }) => ({ status: error.status ?? 500, message: error.message }),
  );
}

async function wrongPasswords(ctx: TestApp, username: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await ctx.client().post('/api/login', { json: { username, password: `wrong-${i}-pass` } })).status);
  return statuses;
}

async function member(ctx: TestApp, username: string, email: string | null): Promise<number> {
  const response = await ctx.client().post('/api/register', { json: { username, password: 'right-pass' } });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  if (email) ctx.db.update(users).set({ email }).where(eq(users.id, id)).run();
  return id;
}

const unlockToken = (text: string | undefined) => /\/auth\/unlock\?token=([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];

describe('wrong passwords pause the address that sent them, not the account', () => {
  test('twelve wrong passwords for the admin from one address: that address waits, the admin signs in from another', async () => {
    const ctx = await testApp();
    await bootstrapAdmin(ctx);
    const statuses = await wrongPasswords(ctx, 'admin', 12);
    expect(statuses).toEqual([...Array(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS).fill(401), 429, 429]);
    const blocked = await ctx.client().post('/api/login', { json: { username: 'admin', password: 'admin-secret' } });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toBe('Too many failed login attempts. Please try again in 15 minutes.');

    const admin = await signInFrom(ctx, '198.51.100.7', 'ADMIN', 'admin-secret');
    expect(admin.status).toBe(200);
    // The address that failed may try again once its failures have left the window.
    ctx.clock.advance(MINUTES_15 + 1);
    expect((await ctx.client().post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
  });

  test('failures from many addresses never pause a clean one, and a success clears only its own address', async () => {
    const ctx = await testApp();
    await member(ctx, 'target', null);
    for (let n = 0; n < 5; n++)
      for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS; i++)
        expect((await signInFrom(ctx, `203.0.113.${n}`, 'target', 'wrong-pass')).status).toBe(401);
    expect((await signInFrom(ctx, '203.0.113.0', 'target', 'right-pass')).status).toBe(429);
    expect((await signInFrom(ctx, '192.0.2.50', 'target', 'right-pass')).status).toBe(200);
    expect((await signInFrom(ctx, '203.0.113.4', 'target', 'right-pass')).status).toBe(429);
  });

  test('one address spraying many usernames is cut at the wider per-address limit', async () => {
    const ctx = await testApp();
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_FAILURES_PER_ADDRESS; i++) statuses.push((await signInFrom(ctx, '203.0.113.9', `nobody${i}`, 'wrong-pass')).status);
    expect(statuses).toEqual([...Array(LOGIN_FAILURES_PER_ADDRESS).fill(401), 429]);
    expect((await signInFrom(ctx, '203.0.113.10', 'nobody0', 'wrong-pass')).status).toBe(401);
  });
});

describe('the unlock e-mail', () => {
  test('the owner gets one link per run of failures, at the confirmed address; opening it lets the paused address in, once', async () => {
    const ctx = await testApp();
    const id = await member(ctx, 'lena', 'lena@example.com');
    await wrongPasswords(ctx, 'lena', 9);
    expect(await deliverOutbox(ctx)).toEqual([]);
    await wrongPasswords(ctx, 'lena', 1);
    for (let i = 0; i < 6; i++) await signInFrom(ctx, `203.0.113.${i}`, 'lena', 'wrong-pass');
    const sent = await deliverOutbox(ctx);
    expect(sent.map((m) => [m.kind, m.to, m.subject])).toEqual([['account_unlock', 'lena@example.com', 'Wrong passwords were tried on your account']]);
    const token = unlockToken(sent[0]!.text)!;
    expect(token).toBeDefined();
    // Kept as a hash only; the outbox drops the body once sent.
    expect(JSON.stringify(ctx.db.select().from(accountTokens).all())).not.toContain(token);
    expect(ctx.db.select().from(emailOutbox).where(eq(emailOutbox.userId, id)).get()!.textBody).toBe(SCRUBBED);

    const page = await ctx.client().get(`/auth/unlock?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(parseHtml(await page.text()).querySelector('form[action="/auth/unlock"] button')?.textContent).toBe('Let me log in again');
    // Opening the page changed nothing: the paused address still waits.
    expect((await ctx.client().post('/api/login', { json: { username: 'lena', password: 'right-pass' } })).status).toBe(429);

    const browser = ctx.client();
    const unlocked = await browser.post('/auth/unlock', { form: { token } });
    expect(unlocked.status).toBe(303);
    expect(unlocked.headers.get('location')).toBe('/auth');
    expect(toastOf(await (await browser.get('/auth')).text())).toMatchObject({ title: 'You can log in again' });
    expect((await ctx.client().post('/api/login', { json: { username: 'lena', password: 'right-pass' } })).status).toBe(200);

    const again = await ctx.client().post('/api/login/unlock', { json: { token } });
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe(UNLOCK_LINK_INVALID);
    const againPage = await ctx.client().post('/auth/unlock', { form: { token } });
    expect(againPage.status).toBe(400);
    expect(textOf(await againPage.text())).toContain(UNLOCK_LINK_INVALID);

    // A new run of failures after the unlock is a new lock: a new link.
    await wrongPasswords(ctx, 'lena', 10);
    expect((await deliverOutbox(ctx)).map((m) => m.kind)).toEqual(['account_unlock']);
  });

  test('no link for an address that was never confirmed, nor for a username that does not exist', async () => {
    const ctx = await testApp();
    await member(ctx, 'quiet', null);
    await wrongPasswords(ctx, 'quiet', 10);
    await wrongPasswords(ctx, 'ghost', 10);
    expect(await deliverOutbox(ctx)).toEqual([]);
    expect(ctx.db.select().from(accountTokens).all()).toEqual([]);
  });

  test('the API takes the link too; a made-up or expired token changes nothing', async () => {
    const ctx = await testApp();
    await member(ctx, 'kai', 'kai@example.com');
    await wrongPasswords(ctx, 'kai', 10);
    const token = unlockToken((await deliverOutbox(ctx))[0]?.text)!;
    for (const bad of [{}, { token: '' }, { token: 'x'.repeat(300) }, { token: `${token}x` }])
      expect((await ctx.client().post('/api/login/unlock', { json: bad })).status).toBe(400);
    ctx.clock.advance(60 * 60_000 + 1);
    expect((await ctx.client().post('/api/login/unlock', { json: { token } })).status).toBe(400);
  });

  test('RATE_LIMIT=off counts nothing and sends nothing', async () => {
    const ctx = await testApp({ RATE_LIMIT: 'off' });
    await member(ctx, 'loaded', 'loaded@example.com');
    expect(await wrongPasswords(ctx, 'loaded', 11)).toEqual(Array(11).fill(401));
    expect(await deliverOutbox(ctx)).toEqual([]);
  });
});
