import { beforeAll, describe, expect, test } from 'bun:test';
import { products } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { adminWithPin, buyNowBody, quickShopper } from '../helpers/actors.ts';
import { type TestApp, type TestClient, testApp } from '../helpers/app.ts';
import { putAuction } from '../helpers/auctions.ts';
import { links } from '../helpers/html.ts';
import { startTeam, teamProduct } from '../helpers/teams.ts';

/*
 * The guard of issue 35: how many SQL statements each page runs, read from csa_db_statements_total
 * in /metrics, against a stated budget. A visitor's cache hit runs none, a signed-in hit at most
 * the session read; a rendered page (`?r=1`, or a page never cached) runs what its budget says.
 * A test cannot time a page, but it can count what it asks the database.
 *
 * The store: the demo seed, three live auctions (one with a bid), a game filling, a team buy, an
 * order. The page cache's clock stands still, so the version check (once per 250 ms in a running
 * server) happens only after a write: a hit here is exactly what a hit costs between checks.
 */

const HOUR = 3_600_000;

interface Store {
  ctx: TestApp;
  visitor: TestClient;
  shopper: TestClient;
  admin: TestClient;
  productId: number;
  playId: number;
  orderId: number;
  adminTabs: string[];
}

let store: Store;

beforeAll(async () => {
  const ctx = await testApp({}, { pageCache: { now: () => 0 } });
  seedIfEmpty(ctx.db, ctx.clock);
  const admin = await adminWithPin(ctx);
  const at = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();
  const forAuction = ctx.db
    .insert(products)
    .values(
      [1, 2, 3].map((n) => ({
        brand: 'Maison Lune',
        model: `ML-${n}`,
        name: `Frames ${n}`,
        quantity: 1,
        priceCents: 10_000,
        bidEnabled: true,
        createdAt: ctx.clock.now(),
      })),
    )
    .returning()
    .all();
  for (const [n, p] of forAuction.entries()) expect((await putAuction(admin, p.id, { startingBid: 10 + n, endsAt: at((n + 1) * HOUR) })).status).toBe(200);
  const shopper = quickShopper(ctx, 'budget-shopper');
  expect((await shopper.client.post(`/api/products/${forAuction[0]!.id}/bids`, { json: { maxAmount: 50 } })).status).toBe(201);
  const playable = ctx.db.$client.query('select id from products where play_enabled = 1 order by id limit 1').get() as { id: number };
  expect((await startTeam(quickShopper(ctx, 'team-starter').client, teamProduct(ctx))).status).toBe(201);
  const buyable = ctx.db.$client
    .query('select id, price_cents as price from products where buy_now_enabled = 1 and quantity > 1 order by id limit 1')
    .get() as {
    id: number;
    price: number;
  };
  const order = await shopper.client.post('/api/orders', { json: buyNowBody(buyable.id, buyable.price) });
  expect(order.status).toBe(201);
  const orderId = ((await order.json()) as { id: number }).id;
  const panel = await (await admin.get('/admin', { headers: { accept: 'text/html' } })).text();
  const adminTabs = [
    ...new Set(
      links(panel, 'a')
        .map((l) => l.href)
        .filter((href) => href.startsWith('/admin?tab=')),
    ),
  ];
  store = { ctx, visitor: ctx.client(), shopper: shopper.client, admin, productId: buyable.id, playId: playable.id, orderId, adminTabs };
});

/** csa_db_statements_total of every route but /metrics itself, summed. */
async function statementsSoFar(ctx: TestApp): Promise<number> {
  const text = await (await ctx.client().get('/metrics')).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const found = /^csa_db_statements_total\{route="([^"]*)"\} (\d+)/.exec(line);
    if (found && found[1] !== '/metrics') total += Number(found[2]);
  }
  return total;
}

/** The statements one GET of `path` runs (it must answer 200). */
async function statementsOf(client: TestClient, path: string): Promise<number> {
  const before = await statementsSoFar(store.ctx);
  const response = await client.get(path, { headers: { accept: 'text/html' } });
  expect(response.status, path).toBe(200);
  await response.text();
  return (await statementsSoFar(store.ctx)) - before;
}

const PAGES = ['/', '/products', '/product/:id', '/play/:id', '/scoreboard', '/scoreboard?tab=winners', '/scoreboard?tab=influencers', '/auctions', '/mystery'];

describe('statements per page', () => {
  test('measured', async () => {
    const rows: string[] = [];
    const resolve = (p: string) => p.replace('/product/:id', `/product/${store.productId}`).replace('/play/:id', `/play/${store.playId}`);
    for (const page of PAGES) {
      const path = resolve(page);
      const rendered = `${path}${path.includes('?') ? '&' : '?'}r=1`;
      const v = [await statementsOf(store.visitor, rendered), await statementsOf(store.visitor, path), await statementsOf(store.visitor, path)];
      const s = [await statementsOf(store.shopper, rendered), await statementsOf(store.shopper, path), await statementsOf(store.shopper, path)];
      rows.push(`| ${page} | ${v.join(' / ')} | ${s.join(' / ')} |`);
    }
    for (const page of ['/cart', '/profile', `/orders/${store.orderId}`]) {
      rows.push(`| ${page} | | ${await statementsOf(store.shopper, page)} / ${await statementsOf(store.shopper, page)} |`);
    }
    rows.push(`| /auth | ${await statementsOf(store.visitor, '/auth')} | |`);
    for (const tab of ['/admin', ...store.adminTabs]) rows.push(`| ${tab} | | ${await statementsOf(store.admin, tab)} |`);
    console.log(rows.join('\n'));
  });
});
