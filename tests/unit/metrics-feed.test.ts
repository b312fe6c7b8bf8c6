import { describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { games, influencerMetrics, influencers, notifications, payments, products, users } from '../../src/db/schema.ts';
import { verifyGame } from '../../src/domain/games/audit.ts';
import { payForPlay } from '../../src/domain/games/entry-payment.ts';
import { createPlay, type GameDeps } from '../../src/domain/games/entry.ts';
import { FEED_SETTLE_DEADLINE_MS } from '../../src/domain/games/schedule.ts';
import { findRecord } from '../../src/domain/games/record.ts';
import { createFeedSource } from '../../src/domain/games/metrics-feed.ts';
import { minutePoints } from '../../src/domain/games/metrics.ts';
import { storeJobs } from '../../src/jobs/index.ts';
import { completeProfile } from '../helpers/actors.ts';
import { testApp } from '../helpers/app.ts';
import { feedMinute, startFakeFeed, type FakeFeed } from '../helpers/fake-feed.ts';
import { closeWhenFileEnds } from '../helpers/file-end.ts';
import { giveConsent } from '../helpers/actors.ts';

/*
 * METRICS_SOURCE=feed against a fake provider over real HTTP (docs/metrics-feed.md): normal
 * minutes are stored and scored; a late feed holds the settlement (and is logged) until the
 * data is in; a feed that never delivers voids the game at the deadline with every hold released.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 21, 18, 10);
const START = Date.UTC(2026, 10, 21, 19, 0);
const END = START + HOUR;

// Each test has its own store and fake feed and mostly waits on the feed: the tests run at once.
const keepFeed = closeWhenFileEnds((feed: FakeFeed) => feed.stop());

async function world() {
  const feed = keepFeed(await startFakeFeed());
  const ctx = await testApp({}, { seededAt: T0 });
  const logs: string[] = [];
  const metrics = createFeedSource({ url: feed.url, key: 'feed-secret', timeoutMs: 10_000, retryPauseMs: 20, log: (line) => logs.push(line) });
  const deps: GameDeps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics };
  const jobs = storeJobs(ctx.db, deps);
  /** One scheduler tick at the current time: every job in order, as the process runs them. */
  const tick = async () => {
    for (const job of jobs) await job.run(ctx.clock.now());
  };
  return { ...ctx, deps, logs, tick, feed };
}
type World = Awaited<ReturnType<typeof world>>;

const people = (w: World) => w.db.select().from(influencers).orderBy(asc(influencers.id)).all();
const book = (w: World) => w.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;

/** Alice picks influencers 0-4, Bob 5-9; both pay; the $2 book's feed game is full at 18:10. */
async function feedGame(w: World) {
  const productId = book(w).id;
  const ids: number[] = [];
  for (const [index, name] of ['alice', 'bob'].entries()) {
    const user = w.db.insert(users).values({ username: name, passwordHash: 'unused', createdAt: w.clock.now() }).returning().get();
    completeProfile(w, user.id);
    giveConsent(w, user.id);
    const picks = people(w)
      .slice(index * 5, index * 5 + 5)
      .map((p) => p.id);
    createPlay(w.deps, user.id, { productId, influencerIds: picks });
    await payForPlay(w.deps, user.id, { productId, amount: 1, type: 'play' }, '192.0.2.1');
    ids.push(user.id);
  }
  const game = w.db.select().from(games).where(eq(games.productId, productId)).get()!;
  expect(game).toMatchObject({ metricsSource: 'feed', status: 'waiting' });
  return { gameId: game.id, productId, alice: ids[0]!, bob: ids[1]! };
}

/** The provider delivers these minutes for every seeded influencer; Alice's five post more. */
function deliver(w: World, from: number, to: number) {
  const everyone = people(w);
  for (let minute = from; minute < to; minute += MINUTE) {
    const body = feedMinute(
      minute,
      everyone.slice(5).map((p) => p.handle),
    );
    body.influencers.push(
      ...feedMinute(
        minute,
        everyone.slice(0, 5).map((p) => p.handle.replace('@', '').toUpperCase()),
        { followers: 2_000_000, engagement: 4, growth: 0.2, posts: 0 },
      ).influencers,
    );
    w.feed.minutes.set(minute, body);
  }
}

const gameOf = (w: World, id: number) => w.db.select().from(games).where(eq(games.id, id)).get()!;
const holdsOf = (w: World) => w.db.select().from(payments).where(eq(payments.kind, 'play_authorization')).all();

describe.concurrent('the metrics feed', () => {
  test('normal: every minute is fetched with the key, stored, and the game settles on the feed; verify-game matches', async () => {
    const w = await world();
    const { gameId, alice } = await feedGame(w);
    deliver(w, START - 10 * MINUTE, END);
    w.clock.set(START);
    await w.tick();
    expect(gameOf(w, gameId).status).toBe('active');
    w.clock.set(END + 5_000);
    await w.tick();
    expect(w.feed.requests.every((r) => r.authorization === 'Bearer feed-secret')).toBe(true);
    const game = gameOf(w, gameId);
    expect(game.status).toBe('completed');
    const record = findRecord(w.db, gameId)!;
    // Alice's five: 60 minutes × the same metrics each; Bob's five: the smaller ones.
    const big = minutePoints({ followers: 2_000_000, engagement: 4, growth: 0.2, posts: 0 });
    expect(record.influencers.find((i) => i.id === people(w)[0]!.id)!.points).toBe(Math.round(60 * big * 1000) / 1000);
    expect(record.plays[0]).toMatchObject({ userId: alice, rank: 1 });
    expect(record.metricsSource).toBe('feed');
    expect(
      w.db
        .select()
        .from(influencerMetrics)
        .all()
        .every((row) => row.source === 'feed'),
    ).toBe(true);
    expect(verifyGame(w.db, gameId).ok).toBe(true);
    expect(w.logs.filter((l) => l.includes('late'))).toEqual([]);
  });

  test('5xx answers are retried within the tick; a timeout is an error for this tick only', async () => {
    const w = await world();
    const minute = START;
    w.feed.minutes.set(minute, feedMinute(minute, [people(w)[0]!.handle]));
    w.feed.failNext(2, 503);
    // Answers that must arrive get a patient source (a busy machine may take a while); the
    // timeout is shown by an impatient one against a feed far slower than its limit.
    const source = createFeedSource({ url: w.feed.url, timeoutMs: 10_000, retryPauseMs: 20, log: () => {} });
    const impatient = createFeedSource({ url: w.feed.url, timeoutMs: 150, retryPauseMs: 20, log: () => {} });
    expect((await source.fetchMinute(minute)).kind).toBe('data');
    w.feed.latencyMs = 3_000;
    expect(await impatient.fetchMinute(minute)).toMatchObject({ kind: 'error', detail: expect.stringContaining('Timeout') });
    w.feed.latencyMs = 0;
    w.feed.minutes.set(minute + MINUTE, { minute: minute, influencers: [] });
    expect(await source.fetchMinute(minute + MINUTE)).toMatchObject({ kind: 'error' });
    expect(await source.fetchMinute(minute + 2 * MINUTE)).toMatchObject({ kind: 'not-ready', status: 404 });
  });

  test('late: the game waits, the delay is logged, and it settles once the data is in', async () => {
    const w = await world();
    const { gameId } = await feedGame(w);
    deliver(w, START - 10 * MINUTE, START + 30 * MINUTE);
    w.clock.set(START);
    await w.tick();
    w.clock.set(END + 5_000);
    await w.tick();
    expect(gameOf(w, gameId).status).toBe('active');
    expect(holdsOf(w).every((h) => h.status === 'authorized')).toBe(true);
    w.clock.set(END + 20 * MINUTE);
    await w.tick();
    expect(w.logs.some((l) => /^metrics feed: late: \d+ minute\(s\) not delivered, the oldest 2026-11-21T19:30:00.000Z/.test(l))).toBe(true);
    deliver(w, START + 30 * MINUTE, END + 30 * MINUTE);
    w.clock.set(END + 30 * MINUTE);
    await w.tick();
    expect(gameOf(w, gameId).status).toBe('completed');
    expect(holdsOf(w).every((h) => h.status === 'captured')).toBe(true);
  });

  test('missing: a game whose hour never arrives is voided at the deadline, every hold released, its unit back in stock', async () => {
    const w = await world();
    const { gameId, productId, alice, bob } = await feedGame(w);
    const stock = book(w).quantity;
    deliver(w, START - 10 * MINUTE, START + 10 * MINUTE);
    w.clock.set(START);
    await w.tick();
    expect(book(w).quantity).toBe(stock - 1);
    w.clock.set(END + FEED_SETTLE_DEADLINE_MS - MINUTE);
    await w.tick();
    expect(gameOf(w, gameId).status).toBe('active');
    w.clock.set(END + FEED_SETTLE_DEADLINE_MS);
    await w.tick();
    expect(gameOf(w, gameId)).toMatchObject({ status: 'canceled', cancelReason: 'The metrics feed never delivered the whole hour.' });
    expect(holdsOf(w).map((h) => h.status)).toEqual(['voided', 'voided']);
    expect(book(w).quantity).toBe(stock);
    expect(w.gateway.payments().every((p) => p.status === 'CANCELED')).toBe(true);
    for (const userId of [alice, bob]) {
      const note = w.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .all()
        .find((n) => n.title === 'Game canceled');
      expect(note?.message).toContain('never arrived in full');
    }
    expect(findRecord(w.db, gameId)).toBeNull();
    expect((await w.client().get(`/api/games/${gameId}`)).status).toBe(200);
    expect(productId).toBeGreaterThan(0);
  });
});
