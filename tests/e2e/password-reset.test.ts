import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { islandsReady, screenshot, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

/* Development without SMTP_URL: the reset e-mail is an .eml file in DATA_DIR/mail, read here as a mail program would. */
const store = storeAndBrowser();

/** The link of the newest `{kind}.eml` written since `before`, as a mail program would show it. */
async function linkFromMail(dataDir: string, before: Set<string>, kind: string, path: string): Promise<string> {
  const dir = join(dataDir, 'data', 'mail');
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const fresh = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(`-${kind}.eml`) && !before.has(f)) : [];
    if (fresh.length) {
      const mail = await simpleParser(readFileSync(join(dir, fresh[0]!)));
      const link = new RegExp(`(http://localhost:\\d+${path}\\?token=[A-Za-z0-9_-]+)`).exec(mail.text ?? '')?.[1];
      expect(typeof mail.html === 'string' && mail.html.includes(`${path}?token=`)).toBe(true);
      if (link) return link;
    }
    await Bun.sleep(200);
  }
  throw new Error(`no ${kind} e-mail in DATA_DIR/mail`);
}

const resetLinkFromMail = (dataDir: string, before: Set<string>) => linkFromMail(dataDir, before, 'password_reset', '/auth/reset');

const mailFiles = (dataDir: string) => new Set(existsSync(join(dataDir, 'data', 'mail')) ? readdirSync(join(dataDir, 'data', 'mail')) : []);

describe('a shopper who forgot the password', () => {
  test('asks for a link, reads it in the e-mail, sets a new password; other sessions end; the link works once', async () => {
    const url = store.server.url;
    // The shopper, signed in on a second device.
    const other = await store.browser.newContext();
    const otherPage = await other.newPage();
    const registered = await otherPage.request.post(`${url}/api/register`, {
      data: { username: 'forgetful', password: 'old-pass-1' },
      headers: { origin: url },
    });
    expect(registered.status()).toBe(201);
    const beforeConfirm = mailFiles(store.server.dataDir);
    const withEmail = await otherPage.request.patch(`${url}/api/user/profile`, {
      data: {
        name: 'For Getful',
        email: 'forgetful@example.com',
        phone: '949-555-0199',
        address: { line1: '9 Cliff Dr', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
      },
      headers: { origin: url },
    });
    expect(withEmail.status()).toBe(200);
    // A reset link goes only to an address its owner confirmed: the shopper opens the link sent to it.
    const confirm = await linkFromMail(store.server.dataDir, beforeConfirm, 'email_change', '/auth/confirm-email');
    await otherPage.goto(confirm);
    await otherPage.getByLabel('Password').fill('old-pass-1');
    await otherPage.getByRole('button', { name: 'Confirm e-mail' }).click();
    await otherPage.waitForURL(`${url}/profile`);
    expect(await toastText(otherPage, 'Your messages now go to forgetful@example.com')).toContain('Your messages now go to forgetful@example.com');

    const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}/auth`);
    await islandsReady(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${url}/auth/forgot`);
    const before = mailFiles(store.server.dataDir);
    await page.getByLabel('E-mail or username').fill('forgetful@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    expect(await page.getByRole('status').textContent()).toContain('If an account matches, we have e-mailed a link');
    await screenshot(page, 'password-forgot-sent');

    const link = await resetLinkFromMail(store.server.dataDir, before);
    await page.goto(link);
    await page.getByLabel('New password').fill('new-pass-2');
    await page.getByLabel('Confirm Password').fill('new-pass-2');
    await screenshot(page, 'password-reset-form');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(`${url}/auth`);
    expect(await toastText(page, 'Password updated')).toContain('Password updated');

    // The other device was signed out.
    expect((await otherPage.request.get(`${url}/api/user`)).status()).toBe(401);

    await islandsReady(page);
    const login = page.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill('forgetful');
    await login.getByLabel('Password').fill('new-pass-2');
    await login.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${url}/`);
    expect(await toastText(page, 'Welcome back, forgetful!')).toContain('Welcome back, forgetful!');

    // The same link again: refused, with a way to ask for a new one.
    await page.goto(link);
    await page.getByLabel('New password').fill('third-pass-3');
    await page.getByLabel('Confirm Password').fill('third-pass-3');
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await page.getByRole('alert').first().textContent()).toContain('This reset link is invalid or has expired');
    expect(errors).toEqual([]);
    await context.close();
    await other.close();
  });
});
