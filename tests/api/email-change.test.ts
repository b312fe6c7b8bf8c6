import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { emailOutbox, userProfiles } from '../../src/db/schema.ts';
import { EMAIL_LINK_INVALID } from '../../src/domain/accounts/email-change.ts';
import type { MailMessage } from '../../src/domain/mail/transport.ts';
import { COMPLETE_PROFILE, shopper } from '../helpers/actors.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { parseHtml, textOf, toastOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/* Changing the e-mail of an account: the new address counts once its owner opens the link sent to it. */

const OLD = COMPLETE_PROFILE.email;

const profileEmail = (ctx: TestApp, id: number) => ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id)).get()!.email;

const tokenIn = (mail: MailMessage | undefined) => /\/auth\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];

describe('changing the e-mail of an account', () => {
  test('a new address waits for its link; the link goes to the new address, a warning to the old one', async () => {
    const ctx = await testApp();
    const lena = await shopper(ctx, 'lena_mail');
    const response = await lena.client.patch('/api/user/profile', { json: { email: 'lena.new@example.com', currentPassword: 'secret-pass' } });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect([body.email, body.pendingEmail]).toEqual([OLD, 'lena.new@example.com']);
    expect(profileEmail(ctx, lena.id)).toBe(OLD);

    const sent = await deliverOutbox(ctx);
    expect(sent.map((m) => [m.kind, m.to])).toEqual([
      ['email_change', 'lena.new@example.com'],
      ['email_change', OLD],
    ]);
    expect(sent[1]!.text).toContain('l•••@example.com');
    expect(sent[1]!.text).not.toContain('lena.new@example.com');
    const token = tokenIn(sent[0]);
    expect(token).toBeDefined();
    // The link is kept only as a hash: once sent, the outbox no longer holds it.
    expect(
      ctx.db
        .select()
        .from(emailOutbox)
        .all()
        .some((row) => row.textBody.includes(token!)),
    ).toBe(false);

    // Opening the link shows a button and changes nothing; the button confirms, once.
    const page = await ctx.client().get(`/auth/confirm-email?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(parseHtml(await page.text()).querySelector('form[action="/auth/confirm-email"] button')?.textContent).toBe('Confirm e-mail');
    expect(profileEmail(ctx, lena.id)).toBe(OLD);

    const confirmed = await lena.client.post('/auth/confirm-email', { form: { token: token! } });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/profile');
    expect(profileEmail(ctx, lena.id)).toBe('lena.new@example.com');
    const profilePage = await lena.client.get('/profile');
    expect(toastOf(await profilePage.text())).toMatchObject({ title: 'E-mail changed' });

    const again = await lena.client.post('/auth/confirm-email', { form: { token: token! } });
    expect(again.status).toBe(400);
    expect(textOf(await again.text())).toContain(EMAIL_LINK_INVALID);
  });

  test('a link expires after 24 hours, and a newer change replaces an older link', async () => {
    const ctx = await testApp();
    const kai = await shopper(ctx, 'kai_mail');
    await kai.client.patch('/api/user/profile', { json: { email: 'kai.one@example.com', currentPassword: 'secret-pass' } });
    const first = tokenIn((await deliverOutbox(ctx))[0])!;
    await kai.client.patch('/api/user/profile', { json: { email: 'kai.two@example.com', currentPassword: 'secret-pass' } });
    const second = tokenIn((await deliverOutbox(ctx))[0])!;
    expect((await ctx.client().post('/api/user/email/confirm', { json: { token: first } })).status).toBe(400);

    ctx.clock.advance(24 * 60 * 60 * 1000 + 1);
    const late = await ctx.client().post('/api/user/email/confirm', { json: { token: second } });
    expect(late.status).toBe(400);
    expect((await late.json()).message).toBe(EMAIL_LINK_INVALID);
    expect(profileEmail(ctx, kai.id)).toBe(OLD);
  });

  test('the API confirms too, signed in or not', async () => {
    const ctx = await testApp();
    const noa = await shopper(ctx, 'noa_mail');
    await noa.client.patch('/api/user/profile', { json: { email: 'noa@elsewhere.example', currentPassword: 'secret-pass' } });
    const token = tokenIn((await deliverOutbox(ctx))[0])!;
    const response = await ctx.client().post('/api/user/email/confirm', { json: { token } });
    expect(response.status).toBe(200);
    expect((await response.json()).email).toBe('noa@elsewhere.example');
    expect(profileEmail(ctx, noa.id)).toBe('noa@elsewhere.example');
  });

  test('the first address, or the same one in other letters, is saved at once; its link confirms it for the account', async () => {
    const ctx = await testApp();
    const client = ctx.client();
    await client.post('/api/register', { json: { username: 'first_mail', password: 'email-pass-1' } });
    const first = await (await client.patch('/api/user/profile', { json: { email: 'first@example.com' } })).json();
    expect([first.email, first.pendingEmail]).toEqual(['first@example.com', undefined]);
    const recased = await (await client.patch('/api/user/profile', { json: { email: 'First@Example.com' } })).json();
    expect([recased.email, recased.pendingEmail]).toEqual(['First@Example.com', undefined]);
    // One link (saving again while it is open sends no second one), and no warning: there was no address before.
    const sent = await deliverOutbox(ctx);
    expect(sent.map((m) => [m.kind, m.to, m.subject])).toEqual([['email_change', 'first@example.com', 'Confirm your e-mail address']]);
    const html = await (await client.get('/profile?tab=account')).text();
    expect(textOf(html)).toContain('It is not confirmed yet, so we cannot send a password reset link there');
    // The first address was typed without a password: its link asks for it.
    const linkPage = parseHtml(await (await client.get(`/auth/confirm-email?token=${tokenIn(sent[0])}`)).text());
    expect(linkPage.querySelector('form[action="/auth/confirm-email"] input[name="password"]')?.getAttribute('type')).toBe('password');
    expect((await client.post('/auth/confirm-email', { form: { token: tokenIn(sent[0])!, password: 'email-pass-1' } })).status).toBe(303);
    const confirmed = await (await client.get('/profile?tab=account')).text();
    expect(toastOf(confirmed)).toMatchObject({ title: 'E-mail confirmed', description: 'Your messages now go to first@example.com.' });
    expect(textOf(confirmed)).not.toContain('not confirmed yet');
  });

  test('the profile form says a link was sent and shows the address waiting', async () => {
    const ctx = await testApp();
    const mia = await shopper(ctx, 'mia_mail');
    const form = {
      name: COMPLETE_PROFILE.name,
      email: 'mia.new@example.com',
      phone: COMPLETE_PROFILE.phone,
      'address.line1': COMPLETE_PROFILE.address.line1,
      'address.city': COMPLETE_PROFILE.address.city,
      'address.state': COMPLETE_PROFILE.address.state,
      'address.postalCode': COMPLETE_PROFILE.address.postalCode,
      'address.country': 'USA',
      currentPassword: 'secret-pass',
    };
    const saved = await mia.client.post('/profile', { form });
    expect(saved.status).toBe(303);
    const html = await (await mia.client.get('/profile')).text();
    expect(toastOf(html)).toMatchObject({ title: 'Confirm your new e-mail' });
    expect(textOf(html)).toContain('Waiting for confirmation: mia.new@example.com');
    expect(parseHtml(html).querySelector<HTMLInputElement>('input[name="email"]')?.getAttribute('value')).toBe(OLD);
  });

  test('changes are limited to 3 an hour; the fourth changes nothing', async () => {
    const ctx = await testApp({ RATE_LIMIT: 'on' });
    const zed = await shopper(ctx, 'zed_mail');
    for (const n of [1, 2, 3])
      expect((await zed.client.patch('/api/user/profile', { json: { email: `zed${n}@example.com`, currentPassword: 'secret-pass' } })).status).toBe(200);
    const fourth = await zed.client.patch('/api/user/profile', { json: { email: 'zed4@example.com', phone: '949-555-0199', currentPassword: 'secret-pass' } });
    expect(fourth.status).toBe(429);
    const profile = ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, zed.id)).get()!;
    expect([profile.email, profile.phone]).toEqual([OLD, COMPLETE_PROFILE.phone]);
  });
});
