import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { emailOutbox, userProfiles, users } from '../../src/db/schema.ts';
import { RESET_REQUESTED } from '../../src/domain/accounts/account-recovery.ts';
import { EMAIL_PASSWORD_NEEDED, EMAIL_PASSWORD_WRONG, EMAIL_TAKEN } from '../../src/domain/accounts/email-change.ts';
import { CURRENT_PASSWORD_NEEDED, CURRENT_PASSWORD_WRONG } from '../../src/domain/accounts/profile.ts';
import type { MailMessage } from '../../src/domain/mail/transport.ts';
import { COMPLETE_PROFILE, shopper } from '../helpers/actors.ts';
import { testApp, type TestApp, type TestClient } from '../helpers/app.ts';
import { fieldErrors, parseHtml, textOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/*
 * Issue 25, rows 6 and 8: a stolen session moved the e-mail without the password, then 'forgot
 * password' went to the new address; the first address was taken without proof, and an older
 * account claiming someone's address received their reset link.
 */

const confirmLink = (mail: MailMessage | undefined) => /\/auth\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
const resetLinks = (sent: MailMessage[]) => sent.filter((m) => m.kind === 'password_reset').map((m) => m.to);
const accountEmail = (ctx: TestApp, id: number) => ctx.db.select({ email: users.email }).from(users).where(eq(users.id, id)).get()!.email;
const profileEmail = (ctx: TestApp, id: number) => ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id)).get()?.email;

/** Registers and sets the first address through the profile, as a shopper does. */
async function withFirstAddress(ctx: TestApp, username: string, email: string): Promise<{ client: TestClient; id: number; link: string }> {
  const client = ctx.client();
  const response = await client.post('/api/register', { json: { username, password: 'secret-pass' } });
  const { id } = (await response.json()) as { id: number };
  expect((await client.patch('/api/user/profile', { json: { email } })).status).toBe(200);
  const mail = (await deliverOutbox(ctx)).find((m) => m.to === email);
  expect(mail?.subject).toBe('Confirm your e-mail address');
  return { client, id, link: confirmLink(mail)! };
}

describe('changing the e-mail needs the current password', () => {
  test('without it, or with a wrong one, nothing changes and nothing is sent; with it, the new address gets its link', async () => {
    const ctx = await testApp();
    const lena = await shopper(ctx, 'lena_pw');
    const missing = await lena.client.patch('/api/user/profile', { json: { email: 'thief@example.com', phone: '949-555-0199' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: CURRENT_PASSWORD_NEEDED, fields: { currentPassword: CURRENT_PASSWORD_NEEDED } });
    const wrong = await lena.client.patch('/api/user/profile', { json: { email: 'thief@example.com', currentPassword: 'guess-pass' } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).fields).toEqual({ currentPassword: CURRENT_PASSWORD_WRONG });
    const profile = ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, lena.id)).get()!;
    expect([profile.email, profile.phone]).toEqual([COMPLETE_PROFILE.email, COMPLETE_PROFILE.phone]);
    expect(ctx.db.select().from(emailOutbox).all()).toEqual([]);

    const right = await lena.client.patch('/api/user/profile', { json: { email: 'lena.new@example.com', currentPassword: 'secret-pass' } });
    expect(right.status).toBe(200);
    expect((await right.json()).pendingEmail).toBe('lena.new@example.com');
    expect((await deliverOutbox(ctx)).map((m) => m.to)).toEqual(['lena.new@example.com', COMPLETE_PROFILE.email]);
    // Other fields, and the same address in other letters, need no password.
    expect((await lena.client.patch('/api/user/profile', { json: { email: 'LENA@example.com', phone: '949-555-0100' } })).status).toBe(200);
  });

  test('a stolen session cannot use it to guess the password: 10 wrong ones, then 429 for 15 minutes', async () => {
    const ctx = await testApp();
    const kai = await shopper(ctx, 'kai_guess');
    const tryPassword = (currentPassword: string) => kai.client.patch('/api/user/profile', { json: { email: 'thief@example.com', currentPassword } });
    for (let i = 0; i < 10; i++) expect((await tryPassword(`guess-${i}-pass`)).status).toBe(400);
    const blocked = await tryPassword('secret-pass');
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).fields).toEqual({ currentPassword: 'Too many wrong passwords. Please try again in 15 minutes.' });
    // The password change form counts the same guesses.
    expect((await kai.client.post('/api/user/password', { json: { currentPassword: 'secret-pass', newPassword: 'thief-pass-1' } })).status).toBe(429);
    ctx.clock.advance(15 * 60_000 + 1);
    expect((await tryPassword('secret-pass')).status).toBe(200);
  });

  test('the Personal form asks for it, says what is missing in shop words and never shows the password back', async () => {
    const ctx = await testApp();
    const mia = await shopper(ctx, 'mia_pw');
    const page = parseHtml(await (await mia.client.get('/profile')).text());
    const field = page.querySelector<HTMLInputElement>('input[name="currentPassword"]');
    expect(field?.getAttribute('type')).toBe('password');
    expect(page.querySelector(`label[for="${field?.id}"]`)?.textContent).toBe('Current password (only to change your e-mail)');
    const form = {
      name: COMPLETE_PROFILE.name,
      email: 'mia.new@example.com',
      phone: COMPLETE_PROFILE.phone,
      'address.line1': COMPLETE_PROFILE.address.line1,
      'address.city': COMPLETE_PROFILE.address.city,
      'address.state': COMPLETE_PROFILE.address.state,
      'address.postalCode': COMPLETE_PROFILE.address.postalCode,
      'address.country': 'USA',
    };
    const refused = await mia.client.post('/profile', { form });
    expect(refused.status).toBe(400);
    expect(fieldErrors(await refused.text(), 'profile-')).toMatchObject({ currentPassword: CURRENT_PASSWORD_NEEDED });
    const wrong = await mia.client.post('/profile', { form: { ...form, currentPassword: 'typed-secret-9' } });
    const html = await wrong.text();
    expect(fieldErrors(html, 'profile-')).toMatchObject({ currentPassword: CURRENT_PASSWORD_WRONG });
    expect(html).not.toContain('typed-secret-9');
    expect(profileEmail(ctx, mia.id)).toBe(COMPLETE_PROFILE.email);
    expect((await mia.client.post('/profile', { form: { ...form, currentPassword: 'secret-pass' } })).status).toBe(303);
    expect(textOf(await (await mia.client.get('/profile')).text())).toContain('Waiting for confirmation: mia.new@example.com');
  });
});

describe('an address counts once its owner opens the link sent to it, for one account only', () => {
  test('the first address gets a link; until it is opened no reset link goes there, after it does', async () => {
    const ctx = await testApp();
    const noa = await withFirstAddress(ctx, 'noa', 'noa@example.com');
    // Receipts may go to it already (the profile's contact address); the account's address waits.
    expect([profileEmail(ctx, noa.id), accountEmail(ctx, noa.id)]).toEqual(['noa@example.com', null]);
    for (const json of [{ email: 'noa@example.com' }, { username: 'noa' }])
      expect((await (await ctx.client().post('/api/password-reset', { json })).json()).message).toBe(RESET_REQUESTED);
    expect(resetLinks(await deliverOutbox(ctx))).toEqual([]);

    expect((await ctx.client().post('/api/user/email/confirm', { json: { token: noa.link, password: 'secret-pass' } })).status).toBe(200);
    expect(accountEmail(ctx, noa.id)).toBe('noa@example.com');
    await ctx.client().post('/api/password-reset', { json: { email: 'NOA@example.com' } });
    expect(resetLinks(await deliverOutbox(ctx))).toEqual(['noa@example.com']);
  });

  test('an older account claiming a confirmed address never gets its reset link, and its confirm link is refused', async () => {
    const ctx = await testApp();
    // The claimer was first: it typed the victim's address before the victim had an account.
    const claimer = await withFirstAddress(ctx, 'claimer', 'victim@example.com');
    const victim = await withFirstAddress(ctx, 'victim', 'victim@example.com');
    expect((await ctx.client().post('/api/user/email/confirm', { json: { token: victim.link, password: 'secret-pass' } })).status).toBe(200);

    await ctx.client().post('/api/password-reset', { json: { email: 'victim@example.com' } });
    await ctx.client().post('/api/password-reset', { json: { username: 'claimer' } });
    const sent = await deliverOutbox(ctx);
    expect(sent.filter((m) => m.kind === 'password_reset').map((m) => [m.to, m.text.includes('account victim')])).toEqual([['victim@example.com', true]]);

    const refused = await ctx.client().post('/api/user/email/confirm', { json: { token: claimer.link, password: 'secret-pass' } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(EMAIL_TAKEN);
    const refusedPage = await ctx.client().post('/auth/confirm-email', { form: { token: claimer.link, password: 'secret-pass' } });
    expect(refusedPage.status).toBe(400);
    expect(textOf(await refusedPage.text())).toContain(EMAIL_TAKEN);
    expect([accountEmail(ctx, claimer.id), accountEmail(ctx, victim.id)]).toEqual([null, 'victim@example.com']);
  });

  test("a first address counts only with the account's password: a stolen session that typed its own cannot make it the account's", async () => {
    const ctx = await testApp();
    const owner = await withFirstAddress(ctx, 'owner_pw', 'thief@example.com');
    const missing = await ctx.client().post('/api/user/email/confirm', { json: { token: owner.link } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).fields).toEqual({ password: EMAIL_PASSWORD_NEEDED });
    const wrong = await ctx.client().post('/auth/confirm-email', { form: { token: owner.link, password: 'guess-pass' } });
    expect(wrong.status).toBe(400);
    const html = await wrong.text();
    expect(fieldErrors(html, 'confirm-email-')).toEqual({ password: EMAIL_PASSWORD_WRONG });
    // The link stays on the page for the owner's next try.
    expect(parseHtml(html).querySelector<HTMLInputElement>('input[name="token"]')?.getAttribute('value')).toBe(owner.link);
    expect(accountEmail(ctx, owner.id)).toBeNull();
    await ctx.client().post('/api/password-reset', { json: { email: 'thief@example.com' } });
    expect(resetLinks(await deliverOutbox(ctx))).toEqual([]);
  });

  test('one confirmed address per account in the database too, whatever the letters', async () => {
    const ctx = await testApp();
    const insert = (username: string, email: string) => ctx.db.insert(users).values({ username, passwordHash: 'x', email, createdAt: ctx.clock.now() }).run();
    insert('one', 'Same@Example.com');
    expect(() => insert('two', 'same@example.COM')).toThrow('UNIQUE');
    ctx.db.insert(users).values({ username: 'three', passwordHash: 'x', createdAt: ctx.clock.now() }).run();
    ctx.db.insert(users).values({ username: 'four', passwordHash: 'x', createdAt: ctx.clock.now() }).run();
  });
});
