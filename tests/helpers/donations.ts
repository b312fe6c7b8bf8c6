import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { products } from '../../src/db/schema.ts';
import { COMPLETE_PROFILE } from './actors.ts';

/* 'Buy to donate' (issue 29): the seeded donateEnabled product and the body its checkout sends. */

/** Seeded with donateEnabled: the Patagonia tee, $45.00 (tax 3.60), 14 in stock. */
export const donatableTee = (ctx: { db: Db }) =>
  ctx.db
    .select()
    .from(products)
    .where(and(eq(products.brand, 'Patagonia'), eq(products.model, '38504-WHI')))
    .get()!;

export const donor = { name: COMPLETE_PROFILE.name, email: COMPLETE_PROFILE.email, phone: COMPLETE_PROFILE.phone };

/** What the checkout page sends in donation mode: no address, `donate: true`. */
export function donationBody(productId: number, priceCents: number, extra: Record<string, unknown> = {}) {
  const tax = Math.round(priceCents * 0.08);
  return {
    productId,
    quantity: 1,
    subtotal: priceCents / 100,
    shipping: 0,
    tax: tax / 100,
    total: (priceCents + tax) / 100,
    donate: true,
    customerInfo: donor,
    paymentToken: 'cnon:card-nonce-ok',
    ...extra,
  };
}
