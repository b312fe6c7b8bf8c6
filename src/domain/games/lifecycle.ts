import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cartItems, games, payments, plays, products, users, type Product } from '../../db/schema.ts';
import { PRIZE_PRICE_CENTS } from '../cart.ts';
import { DomainError } from '../errors.ts';
import { notify } from '../notifications.ts';
import { enteredCount, PENDING_PLAY_MS, type GameDeps } from './entry.ts';
import { influencersById, playScore, rank, snapshotWindow, storedPoints } from './scoring.ts';

/*
 * The hourly game (DESIGN section 4). Every step is idempotent and claimed with a conditional
 * UPDATE, so two ticks (or two processes) never start, settle or expire a game twice, and each
 * $1 hold is captured or voided once. Jobs only decide when to call `runGameJobs`.
 */

export const HOUR_MS = 60 * 60 * 1000;
export const GAME_LENGTH_MS = HOUR_MS;
/** Inside the card networks' 7-day window for a delayed capture. */
export const WAITING_GAME_LIFETIME_MS = 6 * 24 * HOUR_MS;

/** The top of the hour at or after `time`: a game that fills at 13:40 starts at 14:00. */
export function topOfHourAtOrAfter(time: number): number {
  return Math.ceil(time / HOUR_MS) * HOUR_MS;
}

const timeFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric', minute: '2-digit' });

function enteredPlays(db: Db, gameId: number) {
  return db
    .select()
    .from(plays)
    .where(and(eq(plays.gameId, gameId), eq(plays.status, 'entered')))
    .orderBy(asc(plays.enteredAt), asc(plays.id))
    .all();
}

function productOf(db: Db, productId: number): Product {
  return db.select().from(products).where(eq(products.id, productId)).get()!;
}

/** Plays never paid within 15 minutes are void. */
export function expirePendingPlays(deps: GameDeps, now: number): number {
  return deps.db
    .update(plays)
    .set({ status: 'void' })
    .where(and(eq(plays.status, 'pending'), lt(plays.createdAt, now - PENDING_PLAY_MS)))
    .returning({ id: plays.id })
    .all().length;
}

/** Waiting games with enough entries start at the top of the hour after they filled. */
export async function startDueGames(deps: GameDeps, now: number): Promise<number[]> {
  const { db, clock } = deps;
  const started: number[] = [];
  for (const game of db.select().from(games).where(eq(games.status, 'waiting')).all()) {
    const entries = enteredPlays(db, game.id);
    if (entries.length < game.requiredParticipants) continue;
    const filledAt = [...entries].map((p) => p.enteredAt ?? p.createdAt).sort((a, b) => a - b)[game.requiredParticipants - 1]!;
    const startTime = topOfHourAtOrAfter(filledAt);
    if (startTime > now) continue;
    const outcome = db.transaction((tx) => {
      const claimed = tx
        .update(games)
        .set({ status: 'active', startTime, endTime: startTime + GAME_LENGTH_MS })
        .where(and(eq(games.id, game.id), eq(games.status, 'waiting')))
        .returning({ id: games.id })
        .all();
      if (claimed.length === 0) return 'taken' as const;
      // One unit of stock is reserved for the winner when the game starts.
      const reserved = tx
        .update(products)
        .set({ quantity: sql`${products.quantity} - 1` })
        .where(and(eq(products.id, game.productId), sql`${products.quantity} >= 1`))
        .returning({ id: products.id })
        .all();
      if (reserved.length === 0) {
        tx.update(games).set({ status: 'canceled', canceledAt: clock.now() }).where(eq(games.id, game.id)).run();
        return 'sold-out' as const;
      }
      tx.update(plays).set({ status: 'void' }).where(and(eq(plays.gameId, game.id), eq(plays.status, 'pending'))).run();
      // An entry paid at or after the start (a race with this tick) does not join; its hold is released below.
      tx.update(plays).set({ status: 'void' }).where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered'), sql`${plays.enteredAt} >= ${startTime}`)).run();
      return 'started' as const;
    });
    const product = productOf(db, game.productId);
    if (outcome === 'sold-out') {
      await releaseHolds(deps, game.id);
      tellPlayers(deps, game.id, {
        type: 'game_ended',
        title: 'Game canceled',
        message: `${product.brand} sold out before its game could start, so the game was canceled. Your $1 hold was released; nothing was charged.`,
        actionUrl: '/scoreboard?tab=active',
        actionText: 'Find another game',
      });
      db.update(plays).set({ status: 'void' }).where(and(eq(plays.gameId, game.id), inArray(plays.status, ['pending', 'entered']))).run();
    }
    if (outcome !== 'started') continue;
    started.push(game.id);
    await releaseVoidedHolds(deps, game.id);
    tellPlayers(deps, game.id, {
      type: 'game_started',
      title: 'Game started',
      message: `Your game for ${product.brand} is live! It ends at ${timeFormat.format(startTime + GAME_LENGTH_MS)}.`,
      actionUrl: `/product/${product.id}?tab=competition`,
      actionText: 'Watch Live',
    });
  }
  return started;
}

function tellPlayers(deps: GameDeps, gameId: number, message: Parameters<typeof notify>[3]): void {
  const game = deps.db.select().from(games).where(eq(games.id, gameId)).get()!;
  for (const play of enteredPlays(deps.db, gameId)) {
    notify(deps.db, deps.clock, play.userId, { ...message, productId: game.productId, gameId });
  }
}

/** Scores, ranking and winner of a game, from the stored snapshots of its hour. */
export function finalScores(deps: GameDeps, gameId: number) {
  const { db, metrics, clock } = deps;
  const game = db.select().from(games).where(eq(games.id, gameId)).get()!;
  const entries = enteredPlays(db, gameId);
  const ids = [...new Set(entries.flatMap((p) => p.influencerIds.map(Number)))];
  const people = influencersById(db, ids);
  snapshotWindow(db, metrics, [...people.values()], game.startTime!, game.endTime!, clock.now());
  const points = storedPoints(db, ids, game.startTime!, game.endTime!);
  return rank(entries.map((play) => ({ ...play, score: playScore(play.influencerIds, points) })));
}

/** Settles one ended game: scores, winner, prize in the winner's cart, notifications, captures. */
export async function settleGame(deps: GameDeps, gameId: number): Promise<boolean> {
  const { db, clock } = deps;
  const game = db.select().from(games).where(eq(games.id, gameId)).get();
  if (!game || game.status !== 'active' || game.endTime === null || game.endTime > clock.now()) return false;
  const ranked = finalScores(deps, gameId);
  const winner = ranked[0];
  const product = productOf(db, game.productId);
  const now = clock.now();
  const settled = db.transaction((tx) => {
    const claimed = tx
      .update(games)
      .set({ status: 'completed', settledAt: now, winnerPlayId: winner?.id ?? null, prizeOutcome: winner ? 'cart' : null })
      .where(and(eq(games.id, gameId), eq(games.status, 'active')))
      .returning({ id: games.id })
      .all();
    if (claimed.length === 0) return false;
    for (const play of ranked) tx.update(plays).set({ score: play.score }).where(eq(plays.id, play.id)).run();
    if (winner) {
      tx.insert(cartItems).values({ userId: winner.userId, productId: product.id, quantity: 1, priceCents: PRIZE_PRICE_CENTS, type: 'play', gameId, addedAt: now }).run();
    }
    return true;
  });
  if (!settled) return false;

  const winnerName = winner ? (db.select({ username: users.username }).from(users).where(eq(users.id, winner.userId)).get()?.username ?? 'A player') : '';
  for (const play of ranked) {
    const won = play.id === winner?.id;
    const base = { productId: product.id, gameId };
    notify(db, clock, play.userId, { ...base, type: 'game_ended', title: 'Game ended', message: `The game for ${product.brand} has ended.`, actionUrl: '/scoreboard?tab=winners', actionText: 'See Winners' });
    notify(
      db,
      clock,
      play.userId,
      won
        ? { ...base, type: 'game_won', title: 'You won!', message: `Your influencers scored ${play.score.toFixed(1)} points and won ${product.brand}. Claim your prize for $1.`, actionUrl: '/cart', actionText: 'Claim Prize' }
        : { ...base, type: 'game_lost', title: 'Game over', message: `${winnerName} won the game for ${product.brand}. Your score: ${play.score.toFixed(1)}.`, actionUrl: `/play/${product.id}`, actionText: 'Play Again' },
    );
  }
  await captureHolds(deps, gameId);
  return true;
}

/** The $1 holds of a game's entries that are still authorized. */
function heldPayments(db: Db, gameId: number) {
  return db
    .select({ id: payments.id, gatewayPaymentId: payments.gatewayPaymentId })
    .from(payments)
    .innerJoin(plays, eq(payments.playId, plays.id))
    .where(and(eq(plays.gameId, gameId), eq(payments.kind, 'play_authorization'), eq(payments.status, 'authorized')))
    .all();
}

/** Releases the holds of a game's voided plays (entries that came too late). */
async function releaseVoidedHolds(deps: GameDeps, gameId: number): Promise<void> {
  const late = deps.db
    .select({ id: payments.id, gatewayPaymentId: payments.gatewayPaymentId })
    .from(payments)
    .innerJoin(plays, eq(payments.playId, plays.id))
    .where(and(eq(plays.gameId, gameId), eq(plays.status, 'void'), eq(payments.status, 'authorized')))
    .all();
  for (const hold of late) {
    const claimed = deps.db.update(payments).set({ status: 'voided', updatedAt: deps.clock.now() }).where(and(eq(payments.id, hold.id), eq(payments.status, 'authorized'))).returning({ id: payments.id }).all();
    if (claimed.length) await deps.gateway.void(hold.gatewayPaymentId!).catch(() => undefined);
  }
}

/** Charges every hold of a settled game; each is claimed first, so it is captured once. */
export async function captureHolds(deps: GameDeps, gameId: number): Promise<void> {
  await moveHolds(deps, gameId, 'captured', (id) => deps.gateway.capture(id));
}

/** Releases every hold of a canceled game; nobody is charged. */
export async function releaseHolds(deps: GameDeps, gameId: number): Promise<void> {
  await moveHolds(deps, gameId, 'voided', (id) => deps.gateway.void(id));
}

async function moveHolds(deps: GameDeps, gameId: number, to: 'captured' | 'voided', call: (gatewayId: string) => Promise<unknown>): Promise<void> {
  const { db, clock } = deps;
  for (const hold of heldPayments(db, gameId)) {
    const claimed = db
      .update(payments)
      .set({ status: to, updatedAt: clock.now() })
      .where(and(eq(payments.id, hold.id), eq(payments.status, 'authorized')))
      .returning({ id: payments.id })
      .all();
    if (claimed.length === 0) continue;
    try {
      await call(hold.gatewayPaymentId!);
    } catch (error) {
      // Put it back: the next tick tries again.
      db.update(payments).set({ status: 'authorized', errorCode: String((error as { code?: string }).code ?? 'GATEWAY_ERROR'), updatedAt: clock.now() }).where(eq(payments.id, hold.id)).run();
    }
  }
}

export async function settleDueGames(deps: GameDeps, now: number): Promise<number[]> {
  const due = deps.db.select({ id: games.id }).from(games).where(and(eq(games.status, 'active'), lte(games.endTime, now))).all();
  const settled: number[] = [];
  for (const { id } of due) if (await settleGame(deps, id)) settled.push(id);
  return settled;
}

/** A waiting game that has not filled in 6 days is canceled: every hold is voided. */
export async function expireStaleGames(deps: GameDeps, now: number): Promise<number[]> {
  const { db } = deps;
  const stale = db.select().from(games).where(and(eq(games.status, 'waiting'), lte(games.createdAt, now - WAITING_GAME_LIFETIME_MS))).all();
  const canceled: number[] = [];
  for (const game of stale) {
    // A game that filled is only waiting for its hour; it starts, it is not canceled.
    if (enteredCount(db, game.id) >= game.requiredParticipants) continue;
    const claimed = db
      .update(games)
      .set({ status: 'canceled', canceledAt: now })
      .where(and(eq(games.id, game.id), eq(games.status, 'waiting')))
      .returning({ id: games.id })
      .all();
    if (claimed.length === 0) continue;
    canceled.push(game.id);
    const product = productOf(db, game.productId);
    await releaseHolds(deps, game.id);
    tellPlayers(deps, game.id, {
      type: 'game_ended',
      title: 'Game canceled',
      message: `The game for ${product.brand} did not fill within 6 days, so it was canceled. Your $1 hold was released; nothing was charged.`,
      actionUrl: `/play/${product.id}`,
      actionText: 'Play Again',
    });
    db.update(plays).set({ status: 'void' }).where(and(eq(plays.gameId, game.id), inArray(plays.status, ['pending', 'entered']))).run();
  }
  return canceled;
}

/** Holds left behind by a crash between a claim and its gateway call are finished here. */
export async function finishLeftoverHolds(deps: GameDeps): Promise<void> {
  const open = deps.db
    .selectDistinct({ gameId: plays.gameId, status: games.status })
    .from(payments)
    .innerJoin(plays, eq(payments.playId, plays.id))
    .innerJoin(games, eq(plays.gameId, games.id))
    .where(and(eq(payments.status, 'authorized'), inArray(games.status, ['completed', 'canceled'])))
    .all();
  for (const { gameId, status } of open) {
    if (status === 'completed') await captureHolds(deps, gameId);
    else await releaseHolds(deps, gameId);
  }
}

/** One tick: everything that is due, in order. Safe to run at any time, as often as wanted. */
export async function runGameJobs(deps: GameDeps, now = deps.clock.now()) {
  expirePendingPlays(deps, now);
  const started = await startDueGames(deps, now);
  const settled = await settleDueGames(deps, now);
  const canceled = await expireStaleGames(deps, now);
  await finishLeftoverHolds(deps);
  return { started, settled, canceled };
}

/** POST /api/games/{id}/donate: the winner gives the prize to charity instead of buying it. */
export function donatePrize(deps: GameDeps, userId: number, gameId: number): void {
  const { db } = deps;
  const game = Number.isSafeInteger(gameId) ? db.select().from(games).where(eq(games.id, gameId)).get() : undefined;
  const winner = game?.winnerPlayId ? db.select().from(plays).where(eq(plays.id, game.winnerPlayId)).get() : undefined;
  if (!game || !winner || winner.userId !== userId) throw new DomainError(404, 'No prize of yours was found for this game.');
  if (game.prizeOutcome === 'donated') throw new DomainError(409, 'This prize was already donated.');
  const removed = db.transaction((tx) => {
    const gone = tx
      .delete(cartItems)
      .where(and(eq(cartItems.userId, userId), eq(cartItems.gameId, gameId), eq(cartItems.type, 'play')))
      .returning({ id: cartItems.id })
      .all();
    if (gone.length === 0) return false;
    tx.update(games).set({ prizeOutcome: 'donated' }).where(eq(games.id, gameId)).run();
    return true;
  });
  if (!removed) throw new DomainError(409, 'This prize was already claimed.');
}
