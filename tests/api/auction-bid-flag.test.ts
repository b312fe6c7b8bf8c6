import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, type AuctionStatus, products } from '../../src/db/schema.ts';
import { BID_OFF_WHILE_LIVE } from '../../src/domain/catalog/catalog-admin.ts';
import { formFieldsOf, multipart } from '../helpers/admin-products.ts';
import { auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { toastOf } from '../helpers/html.ts';
import { productForm } from '../helpers/products.ts';

/** Turning Bid off on a product whose auction is not over is refused, by the API and by the admin form alike. */

const productRow = (ctx: AuctionStore) => ctx.db.select().from(products).where(eq(products.id, ctx.product.id)).get()!;
const bidOff = (ctx: AuctionStore) => ctx.admin.request('PUT', `/api/products/${ctx.product.id}`, { body: productForm({ bidEnabled: false }) });

async function liveAuction(ctx: AuctionStore, status: AuctionStatus) {
  expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
  const [alice] = bidders(ctx, ['alice1']);
  expect((await placeBid(alice!.client, ctx.product.id, 150)).status).toBe(201);
  // The later states as the close job leaves them: only the status matters to this rule.
  ctx.db.update(auctions).set({ status }).where(eq(auctions.productId, ctx.product.id)).run();
}

describe('turning Bid off while an auction is live', () => {
  test.each(['running', 'awaiting_payment', 'second_chance'] as AuctionStatus[])(
    'PUT /api/products/{id} while %s: 409 on bidEnabled, nothing changed',
    async (status) => {
      const ctx = await auctionStore();
      await liveAuction(ctx, status);
      const before = productRow(ctx);
      const refused = await bidOff(ctx);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ message: BID_OFF_WHILE_LIVE, fields: { bidEnabled: BID_OFF_WHILE_LIVE } });
      expect(productRow(ctx)).toEqual(before);
    },
  );

  test('a scheduled auction (not started yet) counts too', async () => {
    const ctx = await auctionStore();
    const startsAt = new Date(ctx.clock.now() + 60 * 60 * 1000).toISOString();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, startsAt })).status).toBe(200);
    expect((await bidOff(ctx)).status).toBe(409);
    expect(productRow(ctx).bidEnabled).toBe(true);
  });

  test('the admin form with Bid unticked: refused with the message, nothing changed', async () => {
    const ctx = await auctionStore();
    await liveAuction(ctx, 'running');
    const before = productRow(ctx);
    const fields = formFieldsOf(await (await ctx.admin.get(`/admin/product/${ctx.product.id}`)).text());
    expect(fields.bidEnabled).toBeDefined();
    const { bidEnabled: _, ...unticked } = fields;
    const refused = await ctx.admin.post(`/admin/product/${ctx.product.id}`, { body: multipart(unticked) });
    expect(refused.status).toBe(409);
    expect(toastOf(await refused.text())?.description).toBe(BID_OFF_WHILE_LIVE);
    expect(productRow(ctx)).toEqual(before);
  });

  test('once the auction is over, Bid can be turned off; other edits never needed it', async () => {
    const ctx = await auctionStore();
    await liveAuction(ctx, 'running');
    const priced = await ctx.admin.request('PUT', `/api/products/${ctx.product.id}`, { body: productForm({ price: 450 }) });
    expect(priced.status).toBe(200);
    ctx.db.update(auctions).set({ status: 'unsold' }).where(eq(auctions.productId, ctx.product.id)).run();
    expect((await bidOff(ctx)).status).toBe(200);
    expect(productRow(ctx).bidEnabled).toBe(false);
  });
});
