import { describe, expect, test } from 'bun:test';
import { testApp } from '../helpers/app.ts';
import { parseHtml, textOf } from '../helpers/html.ts';

/* The shop's policies: terms, privacy, returns, shipping and contact, reachable from every page. */

const POLICIES = ['/terms', '/privacy', '/returns', '/shipping', '/contact'];

describe('trust pages', () => {
  test('each policy page answers with its heading, the support address and the footer', async () => {
    const ctx = await testApp({ SUPPORT_EMAIL: 'care@csa-laguna.example' });
    for (const path of POLICIES) {
      const response = await ctx.client().get(path);
      expect(response.status).toBe(200);
      const html = await response.text();
      const doc = parseHtml(html);
      expect(doc.querySelectorAll('h1').length).toBe(1);
      const footerLinks = Array.from(doc.querySelectorAll('footer nav a')).map((a) => a.getAttribute('href'));
      expect(footerLinks).toEqual(expect.arrayContaining(POLICIES));
      if (path !== '/shipping') expect(doc.querySelector('a[href="mailto:care@csa-laguna.example"]')).not.toBeNull();
    }
  });

  test('the footer is on every kind of page, the 404 and the account pages included', async () => {
    const ctx = await testApp();
    for (const path of ['/', '/products', '/auth', '/scoreboard', '/no/such/page', '/auth/forgot', '/rules']) {
      const doc = parseHtml(await (await ctx.client().get(path)).text());
      const hrefs = Array.from(doc.querySelectorAll('footer a')).map((a) => a.getAttribute('href'));
      expect({ path, hrefs }).toEqual({ path, hrefs: expect.arrayContaining([...POLICIES, '/rules']) });
    }
  });

  test('privacy names the California rights and sends the shopper to the Account tab that serves them', async () => {
    const ctx = await testApp();
    const html = await (await ctx.client().get('/privacy')).text();
    const text = textOf(html);
    expect(text).toContain('California Consumer Privacy Act');
    expect(text).toContain('We do not sell');
    const doc = parseHtml(html);
    const account = Array.from(doc.querySelectorAll('main a[href="/profile?tab=account"]')).map((a) => a.textContent);
    expect(account).toEqual(expect.arrayContaining(['Download my data', 'Delete my account']));
  });

  test('returns states the 30-day money-back guarantee; shipping states the prices the checkout charges', async () => {
    const ctx = await testApp();
    expect(textOf(await (await ctx.client().get('/returns')).text())).toContain('within 30 days of delivery');
    const shipping = textOf(await (await ctx.client().get('/shipping')).text());
    expect(shipping).toContain('Standard Shipping: $5.99, 5-7 business days.');
    expect(shipping).toContain('Express Shipping: $12.99, 2-3 business days.');
    expect(shipping).toContain('within 2-3 hours');
    expect(shipping).toContain('92651');
  });

  test("the business portal's terms checkbox links to the terms, in a new tab so the form is kept", async () => {
    const ctx = await testApp();
    const doc = parseHtml(await (await ctx.client().get('/business-portal')).text());
    const link = doc.querySelector('label a[href="/terms"]');
    expect(link?.textContent).toContain('terms and conditions');
    expect(link?.getAttribute('target')).toBe('_blank');
  });

  test('SUPPORT_EMAIL must be an e-mail address', async () => {
    await expect(testApp({ SUPPORT_EMAIL: 'not an address' })).rejects.toThrow('SUPPORT_EMAIL must be an e-mail address');
  });
});
