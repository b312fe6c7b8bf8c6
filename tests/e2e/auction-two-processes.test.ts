import { afterAll, beforeAll, expect, test } from 'bun:test';

import { openStoreFile } from '../helpers/store-file.ts';
import { join } from 'node:path';
import { type Maximum, placeBid } from '../../src/domain/auctions/proxy.ts';
import { Client, shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN, type RunningServer, startServer } from '../helpers/server.ts';

/*
 * Issue 28, item 7: 20 bidders send 200 bids at once to two real processes on one database.
 * Every bid is answered (accepted or refused, never a 5xx), every accepted one is a row, and the
 * stored result is the proxy rule applied to the maximums in commit order: nothing lost, nothing
 * decided on a stale read.
 */

const env = { RATE_LIMIT: 'off' };
let a: RunningServer;
let b: RunningServer;

// Starting servers takes seconds on a busy machine: more than the hooks' default 5 s.
beforeAll(async () => {
  a = await startServer({ env });
  b = await startServer({ env, dataDir: a.dataDir });
}, 60_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
}, 30_000);

const storeFile = () => join(a.dataDir, 'data', 'store.db');

/** A fixed pseudo-random sequence, so a failure can be replayed. */
function numbers(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

test('200 bids in waves of 20 at once on two processes: the result equals the proxy rule applied in commit order', async () => {
  const db = openStoreFile(storeFile());
  const productId = (db.query('select id from products order by id limit 1').get() as { id: number }).id;
  db.query('update products set bid_enabled = 1, quantity = 1 where id = ?').run(productId);

  const admin = new Client(a);
  await admin.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
  await admin.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
  await admin.ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 1, increment: 1 });

  const bidders = await Promise.all(Array.from({ length: 20 }, (_, i) => shopperWithCard(i % 2 ? b : a, `bidder${i}`)));
  const random = numbers(28);
  // Ten waves of twenty bids at once (one per bidder, half on each process), each wave's maxima
  // higher than the last's, so many land and many race for the same price.
  const statuses: number[] = [];
  for (let wave = 0; wave < 10; wave++) {
    const answers = await Promise.all(
      bidders.map((client) => client.request('POST', `/api/products/${productId}/bids`, { maxAmount: 1 + wave * 40 + Math.floor(random() * 40) })),
    );
    statuses.push(...answers.map((response) => response.status));
  }
  expect(statuses).toHaveLength(200);
  expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
  const accepted = statuses.filter((status) => status === 201).length;
  // Enough of them landed for the order to matter (the rest were below the price by then).
  expect(accepted).toBeGreaterThan(20);

  const auction = db.query('select * from auctions where product_id = ?').get(productId) as Record<string, number>;
  const maximums = db
    .query('select user_id as bidderId, max_cents as maxCents, created_at as at from auction_maximums where auction_id = ? order by id')
    .all(auction.id as number) as Maximum[];
  const rows = db
    .query('select user_id as bidderId, amount_cents as amountCents, proxy from bids where auction_id = ? order by id')
    .all(auction.id as number) as {
    bidderId: number;
    amountCents: number;
    proxy: number;
  }[];
  db.close();
  expect(maximums).toHaveLength(accepted);

  // Replay: each stored maximum, in commit order, was accepted against the ones before it and
  // wrote exactly the history rows the rule gives.
  const rules = { startingBidCents: 100, incrementCents: 100, reserveCents: null };
  const replayedRows: { bidderId: number; amountCents: number; proxy: number }[] = [];
  let last: ReturnType<typeof placeBid> | undefined;
  maximums.forEach((max, i) => {
    last = placeBid(rules, maximums.slice(0, i), max);
    expect(last.accepted).toBe(true);
    if (last.accepted) replayedRows.push(...last.rows.map((row) => ({ bidderId: row.bidderId, amountCents: row.amountCents, proxy: row.proxy ? 1 : 0 })));
  });
  expect(rows).toEqual(replayedRows);
  const final = last?.accepted ? { price: last.priceCents, leader: last.leaderId } : null;
  expect(final).toEqual({ price: auction.current_price_cents as number, leader: auction.leader_id as number });
  expect(auction.bid_count).toBe(rows.length);
}, 120_000);
