import { eq } from 'drizzle-orm';
import { auctionMaximums, auctions, bids, products } from '../../src/db/schema.ts';
import { adminWithPin, quickShopper } from './actors.ts';
import { type TestApp, testApp, type TestClient } from './app.ts';

/*
 * An auction's world for the API tests: a store with one bid-enabled product (one in stock), the
 * admin with the PIN, and shoppers ready to bid (complete profile, card on file).
 */

export async function auctionStore() {
  const ctx = await testApp();
  const now = ctx.clock.now();
  const product = ctx.db
    .insert(products)
    .values({ brand: 'Maison Lune', model: 'ML-ONE-1', name: 'One-off Frames', quantity: 1, priceCents: 40_000, bidEnabled: true, createdAt: now })
    .returning()
    .get();
  const admin = await adminWithPin(ctx);
  return { ...ctx, product, admin };
}

export type AuctionStore = Awaited<ReturnType<typeof auctionStore>>;

export function putAuction(admin: TestClient, productId: number, body: unknown): Promise<Response> {
  return admin.request('PUT', `/api/admin/products/${productId}/auction`, { json: body });
}

export function placeBid(client: TestClient, productId: number, maxAmount: unknown, headers?: Record<string, string>): Promise<Response> {
  return client.post(`/api/products/${productId}/bids`, { json: { maxAmount }, headers });
}

export const bidders = (ctx: TestApp, names: string[]) => names.map((name) => quickShopper(ctx, name));

/** Every row an auction writes, to show a refusal changed nothing. */
export function auctionRows(ctx: TestApp, productId: number) {
  return {
    auctions: ctx.db.select().from(auctions).where(eq(auctions.productId, productId)).all(),
    maximums: ctx.db.select().from(auctionMaximums).all(),
    bids: ctx.db.select().from(bids).all(),
    quantity: ctx.db.select({ q: products.quantity }).from(products).where(eq(products.id, productId)).get()?.q,
  };
}
