import { describe, expect, test } from 'bun:test';
import { traceStatements } from '../../src/db/statement-count.ts';
import { eq } from 'drizzle-orm';
import { accountTokens, users } from '../../src/db/schema.ts';
import { RESET_LINK_INVALID, RESET_REQUESTED, requestPasswordReset } from '../../src/domain/accounts/account-recovery.ts';
import { createAccountLimits } from '../../src/domain/accounts/account-limits.ts';
import { answeredWorkDone } from '../../src/domain/operations/after-answer.ts';
import { EMAIL_LINK_INVALID } from '../../src/domain/accounts/email-change.ts';
import type { MailMessage } from '../../src/domain/mail/transport.ts';
import { shopper } from '../helpers/actors.ts';
import { testApp, type TestApp, type TestClient } from '../helpers/app.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/*
 * Issue 25, rows 7 and 11: reset links kept working after a password change, 'sign out
 * everywhere' and an e-mail change; and a reset request for a real address took longer to answer.
 */

const linkIn = (sent: MailMessage[], path: string) => {
  const mail = sent.findLast((m) => m.text.includes(path));
  return new RegExp(`${path.replace('?', '\\?')}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? '')?.[1];
};

/** A shopper with a confirmed address, an open reset link and an open e-mail change link. */
async function withOpenLinks(ctx: TestApp) {
  const lena = await shopper(ctx, 'lena_links');
  ctx.db.update(users).set({ email: 'lena@example.com' }).where(eq(users.id, lena.id)).run();
  await ctx.client().post('/api/password-reset', { json: { username: 'lena_links' } });
  const reset = linkIn(await deliverOutbox(ctx), '/auth/reset')!;
  expect((await lena.client.patch('/api/user/profile', { json: { email: 'lena.new@example.com', currentPassword: 'secret-pass' } })).status).toBe(200);
  const change = linkIn(await deliverOutbox(ctx), '/auth/confirm-email')!;
  expect([reset, change].every(Boolean)).toBe(true);
  return { ...lena, reset, change };
}

const resetWorks = async (ctx: TestApp, token: string) =>
  (await ctx.client().post('/api/password-reset/confirm', { json: { token, password: 'brand-new-pass' } })).status;
const changeWorks = async (ctx: TestApp, token: string) => (await ctx.client().post('/api/user/email/confirm', { json: { token } })).status;

const ends: [string, (ctx: TestApp, lena: { client: TestClient }) => Promise<unknown>][] = [
  ['a password change', (_ctx, lena) => lena.client.post('/api/user/password', { json: { currentPassword: 'secret-pass', newPassword: 'changed-pass' } })],
  ["'sign out everywhere' (API)", (_ctx, lena) => lena.client.post('/api/logout/everywhere')],
  ["'sign out everywhere' (the Account tab's form)", (_ctx, lena) => lena.client.post('/profile/sign-out-everywhere', { form: {} })],
];

describe('every open reset and e-mail link ends', () => {
  for (const [what, act] of ends)
    test(`after ${what}`, async () => {
      const ctx = await testApp();
      const lena = await withOpenLinks(ctx);
      await act(ctx, lena);
      expect(await resetWorks(ctx, lena.reset)).toBe(400);
      expect(await changeWorks(ctx, lena.change)).toBe(400);
      expect(
        ctx.db
          .select()
          .from(accountTokens)
          .all()
          .every((t) => t.usedAt !== null),
      ).toBe(true);
    });

  test('after a reset: the open e-mail change link ends', async () => {
    const ctx = await testApp();
    const lena = await withOpenLinks(ctx);
    expect(await resetWorks(ctx, lena.reset)).toBe(200);
    const late = await ctx.client().post('/api/user/email/confirm', { json: { token: lena.change } });
    expect(late.status).toBe(400);
    expect((await late.json()).message).toBe(EMAIL_LINK_INVALID);
  });

  test('after an e-mail change: the reset link sent before it ends', async () => {
    const ctx = await testApp();
    const lena = await withOpenLinks(ctx);
    expect(await changeWorks(ctx, lena.change)).toBe(200);
    const late = await ctx.client().post('/api/password-reset/confirm', { json: { token: lena.reset, password: 'brand-new-pass' } });
    expect(late.status).toBe(400);
    expect((await late.json()).message).toBe(RESET_LINK_INVALID);
  });
});

describe('a reset request answers before it looks for the account', () => {
  test('the answer leaves before the lookup: no link exists when it arrives, the link follows', async () => {
    const ctx = await testApp();
    const lena = await shopper(ctx, 'lena_time');
    ctx.db.update(users).set({ email: 'lena@example.com' }).where(eq(users.id, lena.id)).run();
    const response = await ctx.client().post('/api/password-reset', { json: { email: 'lena@example.com' } });
    expect((await response.json()).message).toBe(RESET_REQUESTED);
    expect(ctx.db.select().from(accountTokens).all()).toEqual([]);
    await answeredWorkDone();
    expect(
      ctx.db
        .select()
        .from(accountTokens)
        .all()
        .map((t) => t.purpose),
    ).toEqual(['password_reset']);
  });

  test('known and unknown addresses run the same steps before the answer; the domain hands back the work to await', async () => {
    const ctx = await testApp();
    const lena = await shopper(ctx, 'lena_steps');
    ctx.db.update(users).set({ email: 'lena@example.com' }).where(eq(users.id, lena.id)).run();
    const deps = { db: ctx.db, clock: ctx.clock, limits: createAccountLimits(ctx.db, ctx.clock, true) };
    // The SQL run before the answer, in order.
    let statements: string[] = [];
    const stopTracing = traceStatements(ctx.db.$client, (sql) => statements.push(sql));
    const stepsFor = (email: string) => {
      statements = [];
      const { done } = requestPasswordReset(deps, { email }, '192.0.2.7');
      return { before: statements, done };
    };
    const known = stepsFor('lena@example.com');
    const unknown = stepsFor('nobody@example.com');
    expect(known.before.length).toBeGreaterThan(0);
    expect(known.before).toEqual(unknown.before);
    await Promise.all([known.done, unknown.done]);
    stopTracing();
    expect(ctx.db.select().from(accountTokens).all()).toHaveLength(1);
  });
});
