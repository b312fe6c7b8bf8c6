import { expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { orders, products, stockReservations, teamMembers, users } from '../../src/db/schema.ts';
import { releaseOrder, returnOrder } from '../../src/domain/inventory/stock.ts';
import { stockOf } from '../../src/domain/inventory/stock-counts.ts';
import { storeBeforeMigration } from '../helpers/migrations.ts';

/*
 * Migration 0023 (issue 34, item 3): the ledger of a store that already sells. Its stocked
 * count is what is on the shelf plus what is held or sold today, and each hold or sale it can
 * read from the rows is a reservation, so what the areas release or return later moves units.
 */

test('migration 0023: held and sold units become reservations; stocked = available + held + sold', async () => {
  const store = storeBeforeMigration('0023_');
  try {
    const { db } = store;
    const at = 1_700_000_000_000;
    const product = db.insert(products).values({ brand: 'Old', model: 'OLD-1', quantity: 3, priceCents: 1000, createdAt: at }).returning().get().id;
    const user = db.insert(users).values({ username: 'olduser', passwordHash: 'x', createdAt: at }).returning().get().id;
    const order = (status: 'pending' | 'processing' | 'canceled', purchaseType: string, quantity: number, paymentMethod = 'square') => {
      const id = db
        .insert(orders)
        .values({
          userId: user,
          orderDate: at,
          totalCents: 1000,
          subtotalCents: 1000,
          taxCents: 0,
          shippingCents: 0,
          status,
          paymentMethod,
          shippingMethod: 'local',
          updatedAt: at,
        })
        .returning()
        .get().id;
      // Raw: the schema of today has order_items columns (variant_id, size_label) this store does not have yet.
      db.run(
        sql`insert into order_items (order_id, product_id, quantity, price_cents, purchase_type) values (${id}, ${product}, ${quantity}, 1000, ${purchaseType})`,
      );
      return id;
    };
    const pending = order('pending', 'buy_now', 1);
    const paidBox = order('processing', 'mystery_box', 1);
    order('canceled', 'buy_now', 2, 'cod');
    const teamOrder = order('processing', 'team', 1);
    // In SQL: the schema's insert names every column of today, and later migrations add some (0027: variant_id).
    db.run(
      sql`insert into teams (code, product_id, starter_id, status, price_cents, tax_cents, hold_cents, expires_at, created_at, updated_at) values ('oldteam001', ${product}, ${user}, 'filled', 500, 40, 540, ${at}, ${at}, ${at})`,
    );
    const team = db.$client.query<{ id: number }, []>("select id from teams where code = 'oldteam001'").get()!.id;
    db.insert(teamMembers).values({ teamId: team, userId: user, role: 'starter', status: 'paid', orderId: teamOrder, createdAt: at, updatedAt: at }).run();
    db.insert(teamMembers).values({ teamId: team, userId: user, role: 'joiner', status: 'held', createdAt: at, updatedAt: at }).run();
    // In SQL: the schema's insert names every column of today, and later migrations add some (0026: offer_cents).
    db.run(
      sql`insert into auctions (product_id, starting_bid_cents, starts_at, ends_at, scheduled_end_at, status, stock_reserved, created_at, updated_at) values (${product}, 100, ${at}, ${at}, ${at}, 'running', 1, ${at}, ${at})`,
    );
    db.run(sql`insert into games (product_id, status, required_participants, created_at) values (${product}, 'active', 2, ${at})`);

    const migrated = await store.migrateRest();
    expect(stockOf(migrated, product)).toEqual({ stocked: 9, available: 3, held: 4, sold: 2 });
    const reasons = migrated
      .select({ reason: stockReservations.reason, state: stockReservations.state })
      .from(stockReservations)
      .all()
      .map((row) => `${row.reason} ${row.state}`)
      .sort();
    expect(reasons).toEqual(['auction held', 'box_draw sold', 'order_line held', 'prize held', 'team_place held', 'team_place sold']);

    // What the areas do next moves units: the pending order fails, the box order and the team order are refunded.
    expect(releaseOrder(migrated, pending, at)).toBe(1);
    expect(returnOrder(migrated, paidBox, at)).toBe(1);
    expect(returnOrder(migrated, teamOrder, at)).toBe(1);
    expect(stockOf(migrated, product)).toEqual({ stocked: 9, available: 6, held: 3, sold: 0 });

    // A product added after the migration gets its level from its first row.
    const later = migrated.insert(products).values({ brand: 'New', model: 'NEW-1', quantity: 4, priceCents: 1000, createdAt: at }).returning().get().id;
    expect(stockOf(migrated, later)).toEqual({ stocked: 4, available: 4, held: 0, sold: 0 });
    migrated.$client.close();
  } finally {
    store.remove();
  }
});
