/**
 * Issue 29, Buy one, play free: free-entry joins per second one server process takes
 * (`POST /api/payments {useFreeEntry: true}`: responsible play, the game check, the entry claimed
 * and the play entered in one IMMEDIATE transaction, no gateway call), against GET /ping in the
 * same run with the same concurrency: joins as a share of /ping. Every join is a different
 * player with one free entry and a pick waiting on one big game (made straight in the database,
 * so the run spends its time on the joins).
 * Usage: bun bench/free-entries.ts [seconds=5] [concurrency=16] [players=4000]
 * The figures move with the machine's other load: compare the share, not the absolute numbers.
 */
import { join } from 'node:path';
import { openDatabase } from '../src/db/client.ts';
import { freeEntries, games, orderItems, orders, plays, users } from '../src/db/schema.ts';
import { systemClock } from '../src/domain/clock.ts';
import { createSession, generateSessionToken } from '../src/domain/accounts/sessions.ts';
import { FREE_ENTRY_VALID_MS } from '../src/domain/games/free-entries.ts';
import { completeProfile, giveConsent } from '../tests/helpers/actors.ts';
import { Client } from '../tests/helpers/http-client.ts';
import { benchServer } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 16);
const playerCount = Number(process.argv[4] ?? 4000);

async function during(ms: number, workers: number, work: () => Promise<boolean | null>): Promise<{ done: number; ok: number }> {
  const until = performance.now() + ms;
  let done = 0;
  let ok = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        const result = await work();
        if (result === null) return;
        if (result) ok++;
        done++;
      }
    }),
  );
  return { done, ok };
}

const server = await benchServer({ LOG_LEVEL: 'warn' });
try {
  const db = openDatabase(join(server.dataDir, 'data', 'store.db'));
  const now = systemClock.now();
  const product = db.$client
    .query<{ id: number; priceCents: number }, []>(
      'select id, price_cents as priceCents from products where play_enabled = 1 and buy_one_play_free_enabled = 1 and quantity > 0 limit 1',
    )
    .get()!;
  const picks = db.$client
    .query<{ id: number }, []>('select id from influencers where retired_at is null order by id limit 5')
    .all()
    .map((r) => String(r.id));
  // One game big enough for every join, so none fills and none opens another.
  const game = db
    .insert(games)
    .values({ productId: product.id, status: 'waiting', requiredParticipants: 1_000_000, createdAt: now })
    .returning({ id: games.id })
    .get();
  const clients: Client[] = [];
  // One transaction for the whole set-up: the actors helpers take a database, and the transaction stands in for it.
  db.transaction((tx) => {
    for (let i = 0; i < playerCount; i++) {
      const user = tx
        .insert(users)
        .values({ username: `free_bench_${i}`, passwordHash: 'unused', createdAt: now })
        .returning({ id: users.id })
        .get();
      completeProfile({ db: tx as never, clock: systemClock }, user.id);
      giveConsent({ db: tx as never, clock: systemClock }, user.id);
      const order = tx
        .insert(orders)
        .values({
          userId: user.id,
          orderDate: now,
          totalCents: product.priceCents,
          subtotalCents: product.priceCents,
          taxCents: 0,
          shippingCents: 0,
          status: 'processing',
          paymentMethod: 'square',
          shippingMethod: 'local',
          updatedAt: now,
        })
        .returning({ id: orders.id })
        .get();
      const line = tx
        .insert(orderItems)
        .values({ orderId: order.id, productId: product.id, quantity: 1, priceCents: product.priceCents, productLabel: 'bench' })
        .returning({ id: orderItems.id })
        .get();
      tx.insert(freeEntries)
        .values({
          userId: user.id,
          productId: product.id,
          orderId: order.id,
          orderItemId: line.id,
          unit: 1,
          grantedAt: now,
          expiresAt: now + FREE_ENTRY_VALID_MS,
        })
        .run();
      tx.insert(plays).values({ productId: product.id, gameId: game.id, userId: user.id, influencerIds: picks, status: 'pending', createdAt: now }).run();
      const token = generateSessionToken();
      createSession(tx as never, systemClock, token, user.id);
      const client = new Client(server);
      client.cookie = `csa_session=${token}`;
      clients.push(client);
    }
  });
  db.$client.close();

  let turn = 0;
  const ms = seconds * 1000;
  const ping = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const joins = await during(ms, concurrency, async () => {
    const client = clients[turn++];
    if (!client) return null;
    const response = await client.request('POST', '/api/payments', { productId: product.id, type: 'play', useFreeEntry: true });
    await response.arrayBuffer();
    return response.status === 201;
  });
  const ping2 = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const pingRate = (ping.done + ping2.done) / 2 / seconds;
  console.log(`one server process, ${concurrency} clients at once, ${seconds} s each (ping, free joins, ping); ${playerCount} players ready`);
  console.log('| what | answers/s | entered/s | share of /ping |');
  console.log('|---|---:|---:|---:|');
  console.log(`| GET /ping | ${pingRate.toFixed(0)} | | 100% |`);
  console.log(
    `| POST /api/payments useFreeEntry | ${(joins.done / seconds).toFixed(0)} | ${(joins.ok / seconds).toFixed(0)} | ${((100 * joins.done) / seconds / pingRate).toFixed(1)}% |`,
  );
  if (joins.done >= playerCount) console.log(`every prepared player joined before the ${seconds} s were up: run again with more players`);
} finally {
  await server.stop();
}
