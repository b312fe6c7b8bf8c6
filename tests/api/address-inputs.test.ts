import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { userProfiles } from '../../src/db/schema.ts';
import { allOrders, checkout, checkoutBody, checkoutStore, customer, fillCart, STANDARD } from '../helpers/checkout.ts';
import { attribute, links, parseHtml, selectedValue, textOf } from '../helpers/html.ts';

/*
 * Issue 27, finding 15: the apartment line reaches the order (its page, receipts and the admin's
 * views read the order's street line), a state typed before the select stays readable, and the
 * profile opens on the tab that is missing something.
 */

const setAddress = (ctx: Awaited<ReturnType<typeof checkoutStore>>, address: Record<string, string>) =>
  ctx.db
    .update(userProfiles)
    .set({ address: address as never })
    .where(eq(userProfiles.userId, ctx.userId))
    .run();

describe('the apartment line', () => {
  test('sent with the cart checkout, it is on the order after the street and on the order page', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { customer: { ...customer, address2: ' Apt 4B ' } }));
    expect(response.status).toBe(201);
    const [order] = allOrders(ctx);
    expect(order!.shippingAddress).toBe('123 Coast Hwy, Apt 4B');
    const page = await ctx.shopper.get(`/orders/${order!.id}`);
    expect(textOf(parseHtml(await page.text()))).toContain('123 Coast Hwy, Apt 4B');
  });

  test("without a checkout form, the profile's apartment goes with its street", async () => {
    const ctx = await checkoutStore();
    setAddress(ctx, { line1: '9 Cliff Drive', line2: 'Suite 200', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' });
    await fillCart(ctx);
    const { customer: _omit, ...body } = await checkoutBody(ctx.shopper, STANDARD);
    expect((await checkout(ctx.shopper, body)).status).toBe(201);
    expect(allOrders(ctx)[0]!.shippingAddress).toBe('9 Cliff Drive, Suite 200');
  });

  test('the checkout form starts from the saved apartment', async () => {
    const ctx = await checkoutStore();
    setAddress(ctx, { line1: '9 Cliff Drive', line2: 'Suite 200', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' });
    await fillCart(ctx);
    const html = parseHtml(await (await ctx.shopper.get('/cart')).text());
    expect(attribute(html, 'input[name="address2"]', 'value')).toBe('Suite 200');
  });
});

describe('a state typed before the select', () => {
  test("a state's name reads as its code; text the select does not know stays shown as typed", async () => {
    const ctx = await checkoutStore();
    setAddress(ctx, { line1: '9 Cliff Drive', city: 'Laguna Beach', state: 'california', postalCode: '92651', country: 'USA' });
    expect((await (await ctx.shopper.get('/api/user/profile')).json()).address.state).toBe('CA');
    expect(selectedValue(parseHtml(await (await ctx.shopper.get('/profile?tab=personal')).text()), 'address.state')).toBe('CA');

    setAddress(ctx, { line1: '9 Cliff Drive', city: 'Laguna Beach', state: 'Calif', postalCode: '92651', country: 'USA' });
    const html = parseHtml(await (await ctx.shopper.get('/profile?tab=personal')).text());
    expect(selectedValue(html, 'address.state')).toBe('Calif');
  });
});

describe('the profile opens on the tab that is missing something', () => {
  const tabOf = async (ctx: Awaited<ReturnType<typeof checkoutStore>>, path = '/profile') =>
    textOf(parseHtml(await (await ctx.shopper.get(path)).text()).querySelector('nav[aria-label="Profile sections"] [aria-current="page"]')!);

  test('only the card missing: Payment; an address field missing: Personal; complete: Personal', async () => {
    const ctx = await checkoutStore();
    expect(await tabOf(ctx)).toBe('Personal');
    ctx.db.update(userProfiles).set({ gatewayCardId: null }).where(eq(userProfiles.userId, ctx.userId)).run();
    expect(await tabOf(ctx)).toBe('Payment');
    // The cart no longer sends anyone to the profile: it opens without a card (issue 27, item 5).
    expect((await ctx.shopper.get('/cart')).status).toBe(200);
    // Asked for by name, a tab still opens, and its completeness card links to what is missing.
    expect(await tabOf(ctx, '/profile?tab=personal')).toBe('Personal');
    const personal = parseHtml(await (await ctx.shopper.get('/profile?tab=personal')).text());
    expect(links(personal.querySelector('section[aria-labelledby="completeness"]')!)).toEqual([{ href: '/profile?tab=payment', text: 'Add your card' }]);
    setAddress(ctx, { line1: '9 Cliff Drive', city: '', state: 'CA', postalCode: '92651', country: 'USA' });
    expect(await tabOf(ctx)).toBe('Personal');
  });

  test('a refused save says which fields to fix, not "Please try again"', async () => {
    const ctx = await checkoutStore();
    const form = {
      name: 'Lena Ocean',
      email: 'lena@example.com',
      phone: '949-555-0123',
      'address.line1': '1',
      'address.city': 'Laguna Beach',
      'address.state': 'CA',
      'address.postalCode': '9265',
    };
    const response = await ctx.shopper.post('/profile', { form });
    expect(response.status).toBe(400);
    const html = parseHtml(await response.text());
    const page = textOf(html);
    expect(page).toContain('Enter your street address (number and street)');
    expect(page).toContain('Enter your 5-digit ZIP code');
    expect(page).toContain('Please fix 2 fields: Street address, ZIP code.');
    expect(page).not.toContain('Please try again');
  });
});
