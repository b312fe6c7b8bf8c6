import { eq } from 'drizzle-orm';
import { products } from '../../db/schema.ts';
import { type AuctionDeps, setUpAuction } from './admin.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Staggered ends, so a newcomer sees one auction close soon and others later. */
const DEMO_DAYS = [1, 3, 7];

/**
 * A fresh demo store opens an auction on each product whose Bid flag the demo catalogue turns
 * on, so every card that says Bid leads to a real auction from the first start. The starting
 * bid is 40% of the price; the first keeps Buy Now beside it until somebody bids.
 */
export function openDemoAuctions(deps: AuctionDeps): number {
  const now = deps.clock.now();
  const biddable = deps.db
    .select({ id: products.id, priceCents: products.priceCents, quantity: products.quantity })
    .from(products)
    .where(eq(products.bidEnabled, true))
    .orderBy(products.id)
    .all()
    .filter((product) => product.quantity > 0);
  biddable.forEach((product, index) => {
    setUpAuction(deps, product.id, {
      startingBid: Math.max(1, Math.round((product.priceCents * 0.4) / 100)),
      endsAt: new Date(now + (DEMO_DAYS[index % DEMO_DAYS.length] ?? 7) * DAY).toISOString(),
      keepBuyNow: index === 0,
    });
  });
  return biddable.length;
}
