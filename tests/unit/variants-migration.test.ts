import { expect, test } from 'bun:test';
import { stockOf } from '../../src/domain/inventory/stock-counts.ts';
import { storeBeforeMigration } from '../helpers/migrations.ts';

/*
 * Migration 0027 (issue 38): a store that sells becomes one variant per product, given the
 * product's own id, stocked as the old stock_levels said; every hold, order line, cart line,
 * game, auction and team points at it, and nothing is lost. The old store is written in SQL:
 * the schema of today has columns (variant_id, size_label) it does not have yet.
 */

type Row = Record<string, unknown>;

test('migration 0027: one variant per product with its id and stock; every row that names a product names its variant', async () => {
  const store = storeBeforeMigration('0027_');
  try {
    const old = store.db.$client;
    const at = 1_700_000_000_000;
    // Ids with gaps, so "the variant has the product's id" is not an accident of counting.
    old.run(
      `insert into products (id, product_type, brand, model, size, quantity, price_cents, created_at) values (5, 'tshirt', 'Old Tee', 'OT-1', 'M', 3, 2500, ${at})`,
    );
    old.run(
      `insert into products (id, product_type, brand, model, size, quantity, price_cents, created_at) values (9, 'book', 'Old Book', 'OB-1', '212', 0, 1200, ${at})`,
    );
    old.run(`update stock_levels set stocked = 7 where product_id = 5`);
    old.run(`update stock_levels set stocked = 1 where product_id = 9`);
    old.run(`insert into users (id, username, password_hash, created_at) values (1, 'olduser', 'x', ${at})`);
    old.run(
      `insert into orders (id, user_id, order_date, total_cents, subtotal_cents, tax_cents, shipping_cents, status, payment_method, shipping_method, updated_at) values (40, 1, ${at}, 2500, 2500, 0, 0, 'processing', 'square', 'local', ${at})`,
    );
    old.run(`insert into order_items (order_id, product_id, quantity, price_cents, purchase_type) values (40, 5, 1, 2500, 'buy_now')`);
    old.run(`insert into order_items (order_id, product_id, quantity, price_cents, purchase_type) values (40, 9, 1, 1200, 'buy_now')`);
    const reserve = (product: number, quantity: number, reason: string, owner: string, state: string) =>
      old.run(
        `insert into stock_reservations (product_id, quantity, reason, owner, order_id, state, created_at, updated_at) values (${product}, ${quantity}, '${reason}', '${owner}', 40, '${state}', ${at}, ${at})`,
      );
    reserve(5, 1, 'order_line', 'order:40', 'sold');
    reserve(9, 1, 'order_line', 'order:40', 'sold');
    reserve(5, 1, 'prize', 'game:3', 'held');
    reserve(5, 1, 'auction', 'auction:2', 'held');
    reserve(5, 1, 'team_place', 'team_member:1', 'held');
    old.run(`insert into cart_items (user_id, product_id, quantity, price_cents, added_at) values (1, 5, 2, 2500, ${at})`);
    old.run(`insert into games (id, product_id, status, required_participants, created_at) values (3, 5, 'active', 2, ${at})`);
    old.run(
      `insert into auctions (id, product_id, starting_bid_cents, starts_at, ends_at, scheduled_end_at, status, stock_reserved, created_at, updated_at) values (2, 5, 100, ${at}, ${at}, ${at}, 'running', 1, ${at}, ${at})`,
    );
    old.run(
      `insert into teams (code, product_id, starter_id, status, price_cents, tax_cents, hold_cents, expires_at, created_at, updated_at) values ('oldteam027', 5, 1, 'open', 1250, 0, 1250, ${at}, ${at}, ${at})`,
    );
    const before = (table: string) => old.query<Row, []>(`select * from ${table} order by rowid`).all();
    const kept = ['order_items', 'stock_reservations', 'cart_items', 'games', 'auctions', 'teams'].map((table) => [table, before(table)] as const);

    const migrated = await store.migrateRest();
    const db = migrated.$client;
    expect(db.query('select id, product_id, sku, size, quantity, stocked, position from product_variants order by id').all()).toEqual([
      { id: 5, product_id: 5, sku: 'OT-1', size: 'M', quantity: 3, stocked: 7, position: 0 },
      { id: 9, product_id: 9, sku: 'OB-1', size: '212', quantity: 0, stocked: 1, position: 0 },
    ]);
    // Nothing lost: every row is still there with every old value, and now names its product's variant.
    for (const [table, rows] of kept) {
      const now = db.query<Row, []>(`select * from ${table} order by rowid`).all();
      expect(
        now.map(({ variant_id, size_label, ...rest }) => rest),
        table,
      ).toEqual(rows);
      expect(
        now.map((row) => row.variant_id),
        table,
      ).toEqual(rows.map((row) => row.product_id));
    }
    expect(stockOf(migrated, 5)).toEqual({ stocked: 7, available: 3, held: 3, sold: 1 });
    expect(stockOf(migrated, 9)).toEqual({ stocked: 1, available: 0, held: 0, sold: 1 });
    expect(db.query("select name from sqlite_master where name = 'stock_levels'").all()).toEqual([]);

    // After it: a new product gets its first variant; an old tool's row naming only a product gets that variant.
    db.run(`insert into products (product_type, brand, model, size, quantity, price_cents, created_at) values ('shoe', 'New', 'NS-1', '10', 4, 9000, ${at})`);
    const fresh = db.query<{ id: number }, []>("select id from products where model = 'NS-1'").get()!.id;
    expect(db.query(`select sku, size, quantity, stocked from product_variants where product_id = ${fresh}`).all()).toEqual([
      { sku: 'NS-1', size: '10', quantity: 4, stocked: 4 },
    ]);
    db.run(`insert into games (product_id, status, required_participants, created_at) values (${fresh}, 'waiting', 2, ${at})`);
    expect(db.query<{ v: number }, []>(`select variant_id as v from games where product_id = ${fresh}`).get()!.v).toBe(
      db.query<{ id: number }, []>(`select id from product_variants where product_id = ${fresh}`).get()!.id,
    );
    migrated.$client.close();
  } finally {
    store.remove();
  }
});
