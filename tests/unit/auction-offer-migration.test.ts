import { expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { auctions } from '../../src/db/schema.ts';
import { storeBeforeMigration } from '../helpers/migrations.ts';

/*
 * Migration 0026 (issue 36): a second-chance offer made before it kept the runner-up's maximum as
 * the auction's price. The offer moves to `offer_cents` and the price goes back to the last public
 * bid; every other auction is left as it was.
 */

test('migration 0026: an offer in flight moves to offer_cents, the price back to the last public bid', async () => {
  const store = storeBeforeMigration('0026_');
  try {
    const { db } = store;
    const at = 1_700_000_000_000;
    db.run(
      sql`insert into products (brand, model, quantity, price_cents, created_at) values ('Old', 'OLD-1', 0, 1000, ${at}), ('Old', 'OLD-2', 0, 1000, ${at})`,
    );
    db.run(sql`insert into users (username, password_hash, created_at) values ('olduser', 'x', ${at})`);
    const auction = (productId: number, status: string, priceCents: number) =>
      db.run(
        sql`insert into auctions (product_id, starting_bid_cents, starts_at, ends_at, scheduled_end_at, status, current_price_cents, bid_count, created_at, updated_at) values (${productId}, 1000, ${at}, ${at}, ${at}, ${status}, ${priceCents}, 2, ${at}, ${at})`,
      );
    auction(1, 'second_chance', 6000);
    auction(2, 'ended', 7000);
    for (const [auctionId, amount] of [
      [1, 2000],
      [1, 6250],
      [2, 7000],
    ])
      db.run(
        sql`insert into bids (product_id, auction_id, user_id, amount_cents, proxy, created_at) values (${auctionId}, ${auctionId}, 1, ${amount}, 0, ${at})`,
      );

    const migrated = await store.migrateRest();
    expect(migrated.select().from(auctions).where(eq(auctions.id, 1)).get()).toMatchObject({
      status: 'second_chance',
      currentPriceCents: 6250,
      offerCents: 6000,
    });
    expect(migrated.select().from(auctions).where(eq(auctions.id, 2)).get()).toMatchObject({ status: 'ended', currentPriceCents: 7000, offerCents: null });
    migrated.$client.close();
  } finally {
    store.remove();
  }
});
