import { describe, expect, test } from 'bun:test';
import { adminWithPin, buyNowBody, giveConsent, quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';

/*
 * What a shopper's requests cost must not grow with the shop's history (issue 26, row 4). The
 * soak found an order's lines read by walking every line ever sold (order_items had no index): a
 * buy-now slowed as orders piled up. Here every statement a shopper's day runs (buy now, the
 * orders list and page, a game entry, the profile, the pages) is recorded and asked for its
 * query plan: none may walk a table that grows with orders, games, players or time.
 */

const GROWING = [
  'orders',
  'order_items',
  'payments',
  'plays',
  'games',
  'sessions',
  'users',
  'notifications',
  'email_outbox',
  'live_events',
  'idempotency_keys',
  'rate_limit_events',
  'cart_items',
  'account_tokens',
  'influencer_metrics',
  'game_records',
  'bids',
  'auctions',
  'auction_maximums',
];

describe("a shopper's requests walk no growing table", () => {
  test('buy now, orders, a game entry, profile and pages: every statement finds its rows by an index', async () => {
    const ctx = await seededApp();
    const sqlite = ctx.db.$client;
    const seen = new Set<string>();
    const prepare = sqlite.prepare.bind(sqlite);
    const query = sqlite.query.bind(sqlite);
    sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
      seen.add(sql);
      return (prepare as (sql: string, ...r: unknown[]) => ReturnType<typeof prepare>)(sql, ...rest);
    }) as typeof sqlite.prepare;
    sqlite.query = ((sql: string) => {
      seen.add(sql);
      return query(sql);
    }) as typeof sqlite.query;

    const { client, id } = quickShopper(ctx, 'planner');
    giveConsent(ctx, id);
    const product = sqlite.query('select id, price_cents as priceCents from products where play_enabled = 1 order by id limit 1').get() as {
      id: number;
      priceCents: number;
    };
    // An auction the shopper bids in, so the auction lists (cards, /auctions, the Bids tab, Winners) read rows.
    const auctioned = sqlite.query('select id from products where bid_enabled = 1 and quantity > 0 order by id limit 1').get() as { id: number };
    const admin = await adminWithPin(ctx);
    expect((await admin.request('PUT', `/api/admin/products/${auctioned.id}/auction`, { json: { startingBid: 10 } })).status).toBe(200);
    expect((await client.post(`/api/products/${auctioned.id}/bids`, { json: { maxAmount: 20 } })).status).toBe(201);
    const order = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(order.status).toBe(201);
    const { id: orderId } = (await order.json()) as { id: number };
    for (const path of [
      '/api/user/orders',
      `/api/orders/${orderId}`,
      `/orders/${orderId}`,
      '/profile',
      '/api/user',
      '/api/notifications',
      '/',
      `/product/${product.id}`,
      '/scoreboard',
      '/products',
      '/auctions',
      '/profile?tab=bids',
      '/scoreboard?tab=winners',
      '/api/games/winners',
      '/api/user/bids',
    ]) {
      expect((await client.get(path)).status).toBe(200);
    }
    const picks = (sqlite.query('select id from influencers order by id limit 5').all() as { id: number }[]).map((row) => String(row.id));
    const entry = await client.post('/api/plays', { json: { productId: product.id, influencerIds: picks } });
    expect(entry.status).toBeLessThan(300);
    expect((await client.post('/api/payments', { json: { productId: product.id, amount: 1, type: 'play' } })).status).toBeLessThan(300);
    sqlite.prepare = prepare;
    sqlite.query = query;

    const walks: string[] = [];
    for (const sql of seen) {
      // An insert's plan lists the child tables SQLite would walk to settle deferred foreign-key
      // violations; it walks them only while such a violation is outstanding, never here.
      if (!/^\s*(select|update|delete|with)/i.test(sql)) continue;
      const params = new Array((sql.match(/\?/g) ?? []).length).fill(1);
      const named = Object.fromEntries([...sql.matchAll(/\$(\w+)/g)].map(([, name]) => [`$${name}`, 1]));
      const plan = sqlite.query(`explain query plan ${sql}`).all(...(Object.keys(named).length ? [named] : params)) as { detail: string }[];
      for (const { detail } of plan) {
        const scanned = /^SCAN (\w+)(?! USING)/.exec(detail)?.[1];
        if (scanned && GROWING.includes(scanned) && !/USING (COVERING )?INDEX/.test(detail))
          walks.push(`${detail} :: ${sql.replace(/\s+/g, ' ').slice(0, 2000)}`);
      }
    }
    expect(walks).toEqual([]);
    expect(seen.size).toBeGreaterThan(20);
  });
});
