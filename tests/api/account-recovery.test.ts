import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { accountTokens, emailOutbox, orders, sessions, userProfiles, users } from '../../src/db/schema.ts';
import { RESET_LINK_INVALID, RESET_REQUESTED, tokenHash } from '../../src/domain/accounts/account-recovery.ts';
import { SCRUBBED } from '../../src/domain/mail/sender.ts';
import type { MailMessage } from '../../src/domain/mail/transport.ts';
import { buyNowBody, completeProfile } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';
import { textOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';
import { answeredWorkDone } from '../../src/domain/operations/after-answer.ts';

/* 'Forgot password?', the reset link, change password, download my data and delete my account. */

type Ctx = Awaited<ReturnType<typeof testApp>>;

async function registered(ctx: Ctx, username: string, email: string | null = `${username}@example.com`): Promise<{ client: TestClient; id: number }> {
  const client = ctx.client();
  const response = await client.post('/api/register', { json: { username, password: 'first-pass' } });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  if (email) ctx.db.update(users).set({ email }).where(eq(users.id, id)).run();
  return { client, id };
}

/** Sends the outbox through a recording transport and returns the reset link's token. */
async function mailedToken(ctx: Ctx): Promise<{ token: string; mail: MailMessage }> {
  const sent = await deliverOutbox(ctx);
  const mail = sent.findLast((m) => m.kind === 'password_reset');
  const token = /https:\/\/shop\.example\.com\/auth\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!mail || !token) throw new Error('no reset e-mail');
  return { token, mail };
}

describe('password reset', () => {
  test('the same answer whether or not an account matches; a link only for a real one, stored as a hash, scrubbed from the outbox once sent', async () => {
    const ctx = await testApp();
    const lena = await registered(ctx, 'lena');
    const answers = await Promise.all(
      [{ email: 'lena@example.com' }, { email: 'nobody@example.com' }, { username: 'LENA' }, { username: 'ghost' }].map(async (json) => {
        const response = await ctx.client().post('/api/password-reset', { json });
        return [response.status, (await response.json()).message];
      }),
    );
    expect(answers).toEqual(Array(4).fill([200, RESET_REQUESTED]));
    await answeredWorkDone();
    const tokens = ctx.db.select().from(accountTokens).all();
    // Two requests for lena: only the newest link works.
    expect(tokens.map((t) => [t.userId, t.purpose, t.usedAt === null])).toEqual([
      [lena.id, 'password_reset', false],
      [lena.id, 'password_reset', true],
    ]);
    const { token, mail } = await mailedToken(ctx);
    expect(mail.to).toBe('lena@example.com');
    expect(mail.subject).toBe('Reset your password');
    expect(tokens[1]?.tokenHash).toBe(tokenHash(token));
    expect(JSON.stringify(ctx.db.select().from(accountTokens).all())).not.toContain(token);
    for (const row of ctx.db.select().from(emailOutbox).all()) {
      expect(row.textBody).not.toContain(token);
      expect(row.htmlBody).not.toContain(token);
      if (row.status === 'sent') expect(row.textBody).toBe(SCRUBBED);
    }
    expect((await ctx.client().post('/api/password-reset', { json: {} })).status).toBe(400);
  });

  test('the link sets the password once and ends every session; used, wrong and expired links are refused', async () => {
    const ctx = await testApp();
    const lena = await registered(ctx, 'lena');
    const other = ctx.client();
    expect((await other.post('/api/login', { json: { username: 'lena', password: 'first-pass' } })).status).toBe(200);
    await ctx.client().post('/api/password-reset', { json: { email: 'LENA@example.com' } });
    const { token } = await mailedToken(ctx);

    const page = await ctx.client().get(`/auth/reset?token=${token}`);
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect((await ctx.client().post('/api/password-reset/confirm', { json: { token, password: '123' } })).status).toBe(400);
    expect((await ctx.client().post('/api/password-reset/confirm', { json: { token, password: 'second-pass' } })).status).toBe(200);
    expect(ctx.db.select().from(sessions).where(eq(sessions.userId, lena.id)).all()).toHaveLength(0);
    expect((await lena.client.get('/api/user')).status).toBe(401);
    expect((await other.get('/api/user')).status).toBe(401);
    expect((await ctx.client().post('/api/login', { json: { username: 'lena', password: 'second-pass' } })).status).toBe(200);
    expect((await ctx.client().post('/api/login', { json: { username: 'lena', password: 'first-pass' } })).status).toBe(401);

    const again = await ctx.client().post('/api/password-reset/confirm', { json: { token, password: 'third-pass' } });
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe(RESET_LINK_INVALID);
    for (const bad of ['', 'x', token.slice(1), `${token}x`, 'a'.repeat(300)])
      expect((await ctx.client().post('/api/password-reset/confirm', { json: { token: bad, password: 'third-pass' } })).status).toBe(400);

    await ctx.client().post('/api/password-reset', { json: { username: 'lena' } });
    const late = await mailedToken(ctx);
    ctx.clock.advance(30 * 60_000 + 1);
    expect((await ctx.client().post('/api/password-reset/confirm', { json: { token: late.token, password: 'third-pass' } })).status).toBe(400);
  });

  test('the forms work without JavaScript: /auth/forgot, then /auth/reset, then log in', async () => {
    const ctx = await testApp();
    await registered(ctx, 'lena');
    expect(await (await ctx.client().get('/auth')).text()).toContain('href="/auth/forgot"');
    const browser = ctx.client();
    const forgot = await browser.post('/auth/forgot', { form: { email: 'lena@example.com' } });
    expect(forgot.status).toBe(200);
    expect(textOf(await forgot.text())).toContain(RESET_REQUESTED);
    const { token } = await mailedToken(ctx);
    const mismatch = await browser.post('/auth/reset', { form: { token, password: 'second-pass', confirmPassword: 'other-pass' } });
    expect(mismatch.status).toBe(400);
    expect(textOf(await mismatch.text())).toContain('Passwords do not match');
    const done = await browser.post('/auth/reset', { form: { token, password: 'second-pass', confirmPassword: 'second-pass' } });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/auth');
    expect((await ctx.client().post('/api/login', { json: { username: 'lena', password: 'second-pass' } })).status).toBe(200);
  });

  test('requests are rate limited per network with a clear 429; floods to one account stop quietly', async () => {
    const ctx = await testApp();
    await registered(ctx, 'lena');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await ctx.client().post('/api/password-reset', { json: { email: 'lena@example.com' } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    await answeredWorkDone();
    expect(ctx.db.select().from(accountTokens).all()).toHaveLength(3);
  });
});

describe('account settings', () => {
  test('change password: the current one is required; other sessions end, this one stays', async () => {
    const ctx = await testApp();
    const lena = await registered(ctx, 'lena');
    const other = ctx.client();
    await other.post('/api/login', { json: { username: 'lena', password: 'first-pass' } });
    const wrong = await lena.client.post('/api/user/password', { json: { currentPassword: 'nope-nope', newPassword: 'second-pass' } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).fields).toEqual({ currentPassword: 'Your current password is not right.' });
    expect((await lena.client.post('/api/user/password', { json: { currentPassword: 'first-pass', newPassword: '12' } })).status).toBe(400);
    expect((await lena.client.post('/api/user/password', { json: { currentPassword: 'first-pass', newPassword: 'second-pass' } })).status).toBe(200);
    expect((await lena.client.get('/api/user')).status).toBe(200);
    expect((await other.get('/api/user')).status).toBe(401);
    expect((await ctx.client().post('/api/password-reset/confirm', { json: { token: 'x', password: 'second-pass' } })).status).toBe(400);
    expect((await ctx.client().post('/api/user/password', { json: { currentPassword: 'a', newPassword: 'second-pass' } })).status).toBe(401);
  });

  test('download my data: profile, orders with items, plays, notifications; no password hash, tokens or gateway ids', async () => {
    const ctx = await testApp();
    const lena = await registered(ctx, 'lena');
    completeProfile(ctx, lena.id);
    const response = await lena.client.get('/api/user/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="my-data-lena.json"');
    const data = await response.json();
    expect(Object.keys(data).sort()).toEqual(['account', 'cart', 'exportedAt', 'freeEntries', 'notifications', 'orders', 'plays', 'profile']);
    expect(data.account).toMatchObject({ id: lena.id, username: 'lena', email: 'lena@example.com' });
    expect(data.profile.name).toBe('Lena Ocean');
    const text = JSON.stringify(data);
    for (const secret of ['argon2', 'passwordHash', 'ccof:', 'test-cust-', 'gatewayCardId']) expect(text).not.toContain(secret);
    expect((await ctx.client().get('/api/user/export')).status).toBe(401);
  });

  test('delete my account: password required; refused while an order is on its way; then personal fields erased, orders kept anonymised, sign-in fails', async () => {
    const ctx = await testApp({ SEED_DEMO: '1' });
    const { seedIfEmpty } = await import('../../src/db/seed.ts');
    seedIfEmpty(ctx.db, ctx.clock);
    const lena = await registered(ctx, 'lena');
    completeProfile(ctx, lena.id);
    const product = (await (await ctx.client().get('/api/products')).json())[0] as { id: number; price: number };
    const placed = await lena.client.post('/api/orders', { json: buyNowBody(product.id, Math.round(product.price * 100)) });
    expect(placed.status).toBe(201);
    const { id: orderId } = (await placed.json()) as { id: number };

    expect((await lena.client.post('/api/user/delete', { json: { password: 'wrong-one' } })).status).toBe(400);
    const busy = await lena.client.post('/api/user/delete', { json: { password: 'first-pass' } });
    expect(busy.status).toBe(409);
    expect((await busy.json()).message).toContain(`Order #${orderId} is not delivered yet`);
    ctx.db.update(orders).set({ status: 'completed' }).where(eq(orders.id, orderId)).run();

    expect((await lena.client.post('/api/user/delete', { json: { password: 'first-pass' } })).status).toBe(200);
    const user = ctx.db.select().from(users).where(eq(users.id, lena.id)).get()!;
    expect(user).toMatchObject({ username: `deleted-${lena.id}`, email: null, fullName: null });
    expect(user.deletedAt).not.toBeNull();
    expect(ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, lena.id)).all()).toHaveLength(0);
    expect(ctx.db.select().from(sessions).where(eq(sessions.userId, lena.id)).all()).toHaveLength(0);
    const order = ctx.db.select().from(orders).where(eq(orders.id, orderId)).get()!;
    expect(order).toMatchObject({ customerName: null, customerEmail: null, customerPhone: null, shippingAddress: null, shippingZipCode: '92651' });
    expect(order.totalCents).toBeGreaterThan(0);
    expect((await lena.client.get('/api/user')).status).toBe(401);
    expect((await ctx.client().post('/api/login', { json: { username: 'lena', password: 'first-pass' } })).status).toBe(401);
    expect((await ctx.client().post('/api/login', { json: { username: `deleted-${lena.id}`, password: 'first-pass' } })).status).toBe(401);
    // The name is free again.
    expect((await ctx.client().post('/api/register', { json: { username: 'lena', password: 'new-person' } })).status).toBe(201);
  });

  test('the Account tab offers all of it as plain forms', async () => {
    const ctx = await testApp();
    const lena = await registered(ctx, 'lena');
    const html = await (await lena.client.get('/profile?tab=account')).text();
    for (const part of ['action="/profile/password"', 'href="/api/user/export"', 'action="/profile/delete"']) expect(html).toContain(part);
    const changed = await lena.client.post('/profile/password', { form: { currentPassword: 'first-pass', newPassword: 'second-pass' } });
    expect(changed.status).toBe(303);
    const unconfirmed = await lena.client.post('/profile/delete', { form: { password: 'second-pass' } });
    expect(unconfirmed.headers.get('location')).toBe('/profile?tab=account');
    expect(ctx.db.select().from(users).where(eq(users.id, lena.id)).get()!.deletedAt).toBeNull();
    const deleted = await lena.client.post('/profile/delete', { form: { password: 'second-pass', confirm: 'yes' } });
    expect(deleted.headers.get('location')).toBe('/');
    expect(ctx.db.select().from(users).where(eq(users.id, lena.id)).get()!.deletedAt).not.toBeNull();
  });
});
