import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { notifications, products } from '../../src/db/schema.ts';
import { fromStoreInput, toStoreInput } from '../../src/shared/store-time.ts';
import { adminWithoutPin, signedInUser } from '../helpers/actors.ts';
import { auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { attribute, count, fieldErrors, first, formFields, inputValue, links, mainOf, textOf, toastOf } from '../helpers/html.ts';

/*
 * The admin's auction page, /admin/products/{id}/auction (issue 28, item 1): set up through the
 * form post (store time, blanks for the ladder and no reserve), the domain's field messages by
 * each field with nothing saved, Cancel and End early through their forms, and the PIN.
 */

const DAY = 24 * 60 * 60 * 1000;
const page = (id: number) => `/admin/products/${id}/auction`;

describe('the auction set-up form', () => {
  test('opens with the defaults (now to 7 days, store time) and sets up the auction it posts', async () => {
    const ctx = await auctionStore();
    const shown = await ctx.admin.get(page(ctx.product.id));
    expect(shown.status).toBe(200);
    const html = await shown.text();
    const now = ctx.clock.now();
    expect(inputValue(html, 'startsAt')).toBe(toStoreInput(now));
    expect(inputValue(html, 'endsAt')).toBe(toStoreInput(now + 7 * DAY));
    expect(textOf(mainOf(html))).toContain('$1 under $50, $2.50 under $250, $5 under $1,000, $10 from $1,000 up');

    const form = formFields(first(html, `form[action="${page(ctx.product.id)}"]`)!);
    const endsAt = toStoreInput(now + 3 * DAY);
    const saved = await ctx.admin.post(page(ctx.product.id), {
      form: { ...form, startingBid: '100', reservePrice: '250.50', increment: '', endsAt, keepBuyNow: 'on' },
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(page(ctx.product.id));
    const [auction] = auctionRows(ctx, ctx.product.id).auctions;
    expect(auction).toMatchObject({
      status: 'running',
      startingBidCents: 10_000,
      reserveCents: 25_050,
      incrementCents: null,
      keepBuyNow: true,
      endsAt: Date.parse(fromStoreInput(endsAt)!),
    });
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);
    // The product's form links to the auction's page and says where it stands.
    const productForm = mainOf(await (await ctx.admin.get(`/admin/product/${ctx.product.id}`)).text());
    expect(links(productForm)).toContainEqual({ href: page(ctx.product.id), text: "Set up or manage this product's auction" });
    expect(textOf(productForm)).toContain('Running: from $100.00, 0 bids, ends');

    // Before the first bid the page offers the same form, filled with the auction's terms.
    const again = await (await ctx.admin.get(page(ctx.product.id))).text();
    expect(inputValue(again, 'startingBid')).toBe('100.00');
    expect(inputValue(again, 'reservePrice')).toBe('250.50');
    const changed = await ctx.admin.post(page(ctx.product.id), {
      form: { ...formFields(first(again, `form[action="${page(ctx.product.id)}"]`)!), startingBid: '90' },
    });
    expect(changed.status).toBe(303);
    expect(auctionRows(ctx, ctx.product.id).auctions).toMatchObject([{ startingBidCents: 9_000, reserveCents: 25_050 }]);
  });

  test('each refusal shows the message by its field and saves nothing', async () => {
    const ctx = await auctionStore();
    const now = ctx.clock.now();
    const cases: [Record<string, string>, string, string][] = [
      [{ startingBid: '100', reservePrice: '50' }, 'reservePrice', 'The reserve price cannot be below the starting bid'],
      [{ startingBid: '100', increment: '0' }, 'increment', 'The bid increment must be at least $0.01'],
      [{ startingBid: '' }, 'startingBid', 'The starting bid must be an amount in dollars, such as 25.00'],
      [{ startingBid: '10.001' }, 'startingBid', 'The starting bid must be in whole cents'],
      [{ startingBid: '100', startsAt: toStoreInput(now + 2 * DAY), endsAt: toStoreInput(now + DAY) }, 'endsAt', 'The end must be after the start'],
      [{ startingBid: '100', endsAt: 'next week' }, 'endsAt', 'Enter a date and time, such as 12/01/2026 6:00 PM'],
    ];
    for (const [form, field, message] of cases) {
      const response = await ctx.admin.post(page(ctx.product.id), { form });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(fieldErrors(html, 'field-')[field]).toBe(message);
      expect(toastOf(html)).toMatchObject({ title: 'Auction not saved', variant: 'destructive' });
      // What the admin typed is still there to fix.
      expect(inputValue(html, 'startingBid')).toBe(form.startingBid);
    }
    // A bad time and a bad amount: both messages at once.
    const both = await (await ctx.admin.post(page(ctx.product.id), { form: { startingBid: '100', reservePrice: '5', startsAt: 'soon' } })).text();
    expect(fieldErrors(both, 'field-')).toMatchObject({
      startsAt: 'Enter a date and time, such as 12/01/2026 6:00 PM',
      reservePrice: 'The reserve price cannot be below the starting bid',
    });
    expect(auctionRows(ctx, ctx.product.id)).toMatchObject({ auctions: [], quantity: 1 });
  });

  test('a product with Bid off says so and is refused', async () => {
    const ctx = await auctionStore();
    ctx.db.update(products).set({ bidEnabled: false }).where(eq(products.id, ctx.product.id)).run();
    const html = await (await ctx.admin.get(page(ctx.product.id))).text();
    expect(first(html, '[data-bid-off]')).toBeDefined();
    const refused = await ctx.admin.post(page(ctx.product.id), { form: { startingBid: '100' } });
    expect(refused.status).toBe(409);
    expect(textOf(mainOf(await refused.text()))).toContain('turn on Bid in its form first');
    expect(auctionRows(ctx, ctx.product.id)).toMatchObject({ auctions: [], quantity: 1 });
    expect((await ctx.admin.get(page(999_999))).status).toBe(404);
  });
});

describe('cancel and end early through the forms', () => {
  test('Cancel auction with no bids: cancelled, the unit back on the shelf', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    const response = await ctx.admin.post(`${page(ctx.product.id)}/cancel`, { form: {} });
    expect(response.status).toBe(303);
    expect(auctionRows(ctx, ctx.product.id)).toMatchObject({ auctions: [{ status: 'cancelled' }], quantity: 1 });
  });

  test('with bids: no Cancel, End early needs a reason, then every bidder is told it', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, ctx.product.id, 300)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 200)).status).toBe(201);
    const html = await (await ctx.admin.get(page(ctx.product.id))).text();
    expect(first(html, `form[action="${page(ctx.product.id)}/cancel"]`)).toBeUndefined();
    expect(first(html, `form[action="${page(ctx.product.id)}"]`)).toBeUndefined();
    // The admin reads full usernames in the history.
    expect(textOf(first(html, '[data-bid-history]')!)).toContain('alice1');

    const before = auctionRows(ctx, ctx.product.id);
    expect((await ctx.admin.post(`${page(ctx.product.id)}/cancel`, { form: {} })).status).toBe(409);
    const noReason = await ctx.admin.post(`${page(ctx.product.id)}/end`, { form: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect(fieldErrors(await noReason.text(), 'end-').reason).toBe('Say why the auction ends (at least 3 characters).');
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);

    // The button asks first, as Mark Delivered does: a confirmation step, nothing changed yet.
    const asked = await ctx.admin.post(`${page(ctx.product.id)}/end`, { form: { reason: 'The piece was damaged in the studio', back: 'running' } });
    expect(asked.status).toBe(200);
    const step = await asked.text();
    expect(textOf(first(step, 'h1')!)).toBe('End auction early: Maison Lune One-off Frames?');
    expect(attribute(step, '[data-confirm-step] a', 'href')).toBe('/admin?tab=auctions');
    expect(attribute(step, '[data-confirm-step] input[name="reason"]', 'value')).toBe('The piece was damaged in the studio');
    expect(attribute(step, '[data-confirm-step] input[name="confirmed"]', 'value')).toBe('yes');
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);

    const ended = await ctx.admin.post(`${page(ctx.product.id)}/end`, {
      form: { reason: 'The piece was damaged in the studio', back: 'running', confirmed: 'yes' },
    });
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe('/admin?tab=auctions');
    expect(auctionRows(ctx, ctx.product.id).auctions[0]).toMatchObject({ endsAt: ctx.clock.now(), reason: 'The piece was damaged in the studio' });
    // Closing (the close job not there yet): no set-up form, nothing more to stop.
    const closing = await (await ctx.admin.get(page(ctx.product.id))).text();
    expect(count(mainOf(closing), 'form')).toBe(0);
    expect(textOf(first(closing, '[data-auction-state]')!)).toContain('The piece was damaged in the studio');
    for (const bidder of [alice!, bob!]) {
      const told = ctx.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, bidder.id), eq(notifications.type, 'auction_ended')))
        .all();
      expect(told.map((n) => n.message).join(' ')).toContain('The piece was damaged in the studio');
    }
  });
});

describe('who may use the forms', () => {
  test('without the PIN or as a shopper: refused, nothing saved', async () => {
    const ctx = await auctionStore();
    const noPin = await adminWithoutPin(ctx);
    const locked = await noPin.post(page(ctx.product.id), { form: { startingBid: '100' } });
    expect(locked.status).toBe(403);
    expect(textOf(mainOf(await locked.text()))).toContain('Enter the admin PIN');
    const shopper = signedInUser(ctx, 'carol3');
    expect((await shopper.client.post(page(ctx.product.id), { form: { startingBid: '100' } })).status).toBe(403);
    expect((await shopper.client.get(page(ctx.product.id))).status).toBe(403);
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    const before = auctionRows(ctx, ctx.product.id);
    expect((await noPin.post(`${page(ctx.product.id)}/end`, { form: { reason: 'No reason at all' } })).status).toBe(403);
    expect((await shopper.client.post(`${page(ctx.product.id)}/cancel`, { form: {} })).status).toBe(403);
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });
});
