import { and, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { cartItems, games, payments, plays, type Game, type Play } from '../../db/schema.ts';
import { productLabel } from '../catalog/catalog.ts';
import { markSold, owners, reserve } from '../inventory/stock.ts';
import { composeEmail, linkTo } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { PRIZE_PRICE_CENTS } from './prizes.ts';
import { notify } from '../accounts/notifications.ts';
import { slicer } from '../operations/slices.ts';
import { cancelGame, expireStaleGames } from './cancel.ts';
import { enteredPlays, GAMES_PER_SLICE, gameSizeOf, inSize, productOf, tellPlayers } from './game-rows.ts';
import type { GameDeps } from './entry.ts';
import { holdsToMove, markGameHolds } from './holds.ts';
import { moveHolds } from '../payments/holds.ts';
import { usernamesOf } from '../accounts/accounts.ts';
import { giveBackFreeEntries } from './free-entries.ts';
import { buildRecord, saveRecord } from './record.ts';
import { revealedSeedOf } from './seeds.ts';
import { calibrationOf, gamePoints, playScore, rank } from './scoring.ts';
import { entryTime, FEED_SETTLE_DEADLINE_MS, isStarted, type Started, GAME_LENGTH_MS, PENDING_PLAY_MS, PRIZE_KEEP_MS, startOfFilledGame } from './schedule.ts';
import { formatStoreClock } from '../../shared/store-time.ts';
import { heldVariant } from '../inventory/variants.ts';

/*
 * The hourly game (DESIGN section 4). Every step is idempotent and claimed with a conditional
 * UPDATE, so two ticks (or two processes) never start, settle or expire a game twice. The
 * transaction that decides a step also writes its notifications and marks the $1 holds to
 * capture or release (holds.ts); the gateway is called after it commits, and whatever a crash
 * interrupts is finished by the reconciler. Jobs only decide when to call `runGameJobs`.
 * Games go one transaction each, and the loops give requests a turn every few games
 * (../slices.ts): hundreds of games starting at the same hour never freeze the store.
 */

/** Plays never paid within 15 minutes are void. */
export function expirePendingPlays(deps: GameDeps, now: number): number {
  return voidUnpaidPlays(deps.db).all({ before: now - PENDING_PLAY_MS }).length;
}

/* Every game tick runs it: built once (db/prepared.ts). */
const voidUnpaidPlays = preparedOnce((db) =>
  db
    .update(plays)
    .set({ status: 'void' })
    .where(and(eq(plays.status, 'pending'), lt(plays.createdAt, sql.placeholder('before'))))
    .returning({ id: plays.id })
    .prepare(),
);

/** Waiting games with enough entries start at the top of the hour after they filled. */
export async function startDueGames(deps: GameDeps, now: number): Promise<number[]> {
  const { db, clock } = deps;
  const started: number[] = [];
  const step = slicer(GAMES_PER_SLICE);
  for (const game of db.select().from(games).where(eq(games.status, 'waiting')).all()) {
    await step();
    const entries = enteredPlays(db, game.id);
    if (entries.length < game.requiredParticipants) continue;
    const startTime = startOfFilledGame(entries.map(entryTime), game.requiredParticipants);
    if (startTime === null || startTime > now) continue;
    // One transaction decides everything: the start (or the cancel), the holds to release, the notifications.
    const outcome = db.transaction((tx) => {
      // The start was decided on entries read before this transaction: an entry voided since changes it.
      const entriesNow = enteredPlays(tx, game.id);
      if (entriesNow.length < game.requiredParticipants || startOfFilledGame(entriesNow.map(entryTime), game.requiredParticipants) !== startTime)
        return 'taken' as const;
      const claimed = tx
        .update(games)
        .set({ status: 'active', startTime, endTime: startTime + GAME_LENGTH_MS })
        .where(and(eq(games.id, game.id), eq(games.status, 'waiting')))
        .returning({ id: games.id })
        .all();
      if (claimed.length === 0) return 'taken' as const;
      const product = productOf(tx, game.productId);
      // One unit of stock is reserved for the winner when the game starts.
      const reserved = reserve(tx, {
        productId: game.productId,
        variantId: heldVariant(game.variantId),
        quantity: 1,
        reason: 'prize',
        owner: owners.game(game.id),
        now: clock.now(),
      });
      if (!reserved) {
        tx.update(games).set({ status: 'canceled', canceledAt: clock.now() }).where(eq(games.id, game.id)).run();
        tellPlayers(tx, clock, game.id, game.productId, 'canceled', {
          type: 'game_ended',
          title: 'Game canceled',
          message: `${product.brand} sold out before its game could start, so the game was canceled. Your $1 hold was released; nothing was charged.`,
          actionUrl: '/scoreboard?tab=active',
          actionText: 'Find another game',
        });
        markGameHolds(tx, clock, game.id, 'voiding');
        giveBackFreeEntries(tx, clock, game.id);
        tx.update(plays)
          .set({ status: 'void' })
          .where(and(eq(plays.gameId, game.id), inArray(plays.status, ['pending', 'authorizing', 'entered'])))
          .run();
        return 'sold-out' as const;
      }
      // Plays not paid yet, or whose hold is still being asked for, do not join a started game.
      tx.update(plays)
        .set({ status: 'void' })
        .where(and(eq(plays.gameId, game.id), inArray(plays.status, ['pending', 'authorizing'])))
        .run();
      // An entry paid at or after the start (a race with this tick) does not join; its hold is released.
      const late = tx
        .update(plays)
        .set({ status: 'void' })
        .where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered'), sql`${plays.enteredAt} >= ${startTime}`))
        .returning({ id: plays.id })
        .all();
      if (late.length) {
        const ids = late.map((p) => p.id);
        markGameHolds(tx, clock, game.id, 'voiding', ids);
        giveBackFreeEntries(tx, clock, game.id, ids);
      }
      // The picks are final now: what scoring needs of each picked influencer is frozen with the game.
      const picked = [...new Set(enteredPlays(tx, game.id).flatMap((p) => p.influencerIds.map(Number)))];
      tx.update(games)
        .set({ calibration: calibrationOf(tx, picked) })
        .where(eq(games.id, game.id))
        .run();
      tellPlayers(tx, clock, game.id, game.productId, 'started', {
        type: 'game_started',
        title: 'Game started',
        message: `Your game for ${product.brand}${inSize(gameSizeOf(tx, game))} is live! It ends at ${formatStoreClock(startTime + GAME_LENGTH_MS)}.`,
        actionUrl: `/product/${product.id}?tab=competition`,
        actionText: 'Watch Live',
      });
      return 'started' as const;
    });
    if (outcome === 'taken') continue;
    if (outcome === 'started') started.push(game.id);
    await moveHolds(deps, holdsToMove(db, game.id));
  }
  return started;
}

/** The picks' calibration: frozen at the start; for a game started before it was frozen, as the influencers stand. */
function calibrationFor(db: Queryable, game: Game, entries: Play[]) {
  return game.calibration ?? calibrationOf(db, [...new Set(entries.flatMap((p) => p.influencerIds.map(Number)))]);
}

/** Scores, ranking and winner of a game over its whole hour; `missing` > 0 while the feed has gaps. */
export function finalScores(db: Queryable, game: Started<Game>) {
  const entries = enteredPlays(db, game.id);
  const calibration = calibrationFor(db, game, entries);
  const { points, missing } = gamePoints(db, game, game.endTime, calibration);
  const names = usernamesOf(
    db,
    entries.map((p) => p.userId),
  );
  const ranked = rank(entries.map((play) => ({ ...play, username: names.get(play.userId) ?? 'A player', score: playScore(play.influencerIds, points) })));
  return { ranked, points, calibration, missing };
}

/** A win by a player who chose charity before paying (outside 92651) is donated at once; any other waits in the cart. */
function prizeOutcomeFor(winner: { donateIfWon: boolean } | undefined) {
  if (!winner) return null;
  return winner.donateIfWon ? ('donated' as const) : ('cart' as const);
}

/** Settles one ended game: scores, winner, frozen record, prize in the winner's cart, notifications, captures. */
export async function settleGame(deps: GameDeps, gameId: number): Promise<boolean> {
  const { db, clock } = deps;
  const game = db.select().from(games).where(eq(games.id, gameId)).get();
  if (game?.status !== 'active' || !isStarted(game) || game.endTime > clock.now()) return false;
  const { ranked, points, calibration, missing } = finalScores(db, game);
  if (missing > 0) {
    if (clock.now() < game.endTime + FEED_SETTLE_DEADLINE_MS) {
      console.warn(`games: game ${gameId} waits for ${missing} influencer-minutes from the metrics feed before it can be settled`);
      return false;
    }
    await cancelGame(deps, gameId, {
      reason: 'The metrics feed never delivered the whole hour.',
      message: (brand, sized) =>
        `The metrics data of the game for ${brand}${sized} never arrived in full, so the game was voided. Your $1 hold was released; nothing was charged.`,
      only: 'active',
    });
    return false;
  }
  const winner = ranked[0];
  const product = productOf(db, game.productId);
  const now = clock.now();
  const winnerName = winner?.username ?? '';
  // The prize is the game's size (issue 38): the win says which.
  const size = gameSizeOf(db, game);
  const sized = inSize(size);
  // The result, the record, the prize, every notification and the holds to capture: all or nothing.
  const settled = db.transaction((tx) => {
    // Scores and winner were computed from entries read before this transaction: settled only if they are still the game's.
    const entriesNow = enteredPlays(tx, gameId).map((play) => play.id);
    if (entriesNow.length !== ranked.length || ranked.some((play) => !entriesNow.includes(play.id))) return false;
    const claimed = tx
      .update(games)
      .set({
        status: 'completed',
        settledAt: now,
        winnerPlayId: winner?.id ?? null,
        prizeOutcome: prizeOutcomeFor(winner),
        calibration,
        ...revealedSeedOf(game),
      })
      .where(and(eq(games.id, gameId), eq(games.status, 'active'), eq(games.startTime, game.startTime), eq(games.endTime, game.endTime)))
      .returning()
      .get();
    if (!claimed || !isStarted(claimed)) return false;
    saveRecord(tx, buildRecord(claimed, { ...product, size }, calibration, points, ranked, now));
    for (const play of ranked) tx.update(plays).set({ score: play.score }).where(eq(plays.id, play.id)).run();
    if (winner && !winner.donateIfWon) {
      tx.insert(cartItems)
        .values({
          userId: winner.userId,
          productId: product.id,
          variantId: claimed.variantId,
          quantity: 1,
          priceCents: PRIZE_PRICE_CENTS,
          type: 'play',
          gameId,
          addedAt: now,
        })
        .run();
    }
    // Given to charity at once: the unit leaves the store as if sold.
    if (winner?.donateIfWon) markSold(tx, owners.game(gameId), now);
    for (const play of ranked) {
      const won = play.id === winner?.id;
      const base = { productId: product.id, gameId };
      notify(tx, clock, play.userId, {
        ...base,
        type: 'game_ended',
        eventKey: `game:${gameId}:ended`,
        title: 'Game ended',
        message: `The game for ${product.brand} has ended.`,
        actionUrl: `/games/${gameId}`,
        actionText: 'See Results',
      });
      notify(
        tx,
        clock,
        play.userId,
        won
          ? {
              ...base,
              type: 'game_won',
              eventKey: `game:${gameId}:result`,
              title: 'You won!',
              ...(play.donateIfWon
                ? {
                    message: `Your influencers scored ${play.score.toFixed(1)} points and won ${product.brand}${sized}. As you chose before playing, the prize goes to charity.`,
                    actionUrl: '/scoreboard?tab=my-games',
                    actionText: 'My Games',
                  }
                : {
                    message: `Your influencers scored ${play.score.toFixed(1)} points and won ${product.brand}${sized}. Claim your prize for $1.`,
                    actionUrl: '/cart',
                    actionText: 'Claim Prize',
                  }),
            }
          : {
              ...base,
              type: 'game_lost',
              eventKey: `game:${gameId}:result`,
              title: 'Game over',
              message: `${winnerName} won the game for ${product.brand}. Your score: ${play.score.toFixed(1)}.`,
              actionUrl: `/play/${product.id}${size ? `?size=${encodeURIComponent(size)}` : ''}`,
              actionText: 'Play Again',
            },
      );
    }
    if (winner && !winner.donateIfWon) {
      queueEmail(tx, clock, {
        userId: winner.userId,
        kind: 'game_won',
        eventKey: `game:${gameId}:won`,
        subject: `You won ${product.brand}${sized}!`,
        body: composeEmail({
          heading: 'You won!',
          paragraphs: [
            `Your influencers scored ${winner.score.toFixed(1)} points and won the game for ${productLabel(product)}${sized}.`,
            'Your prize is in your cart: buy it for $1 plus tax with free delivery within 2-3 hours (Laguna Beach, 92651), or donate it to charity from My Games.',
            `It is kept for you for ${PRIZE_KEEP_MS / 86_400_000} days; after that it goes back to stock.`,
          ],
          action: { label: 'Claim your prize', path: '/cart' },
          footnote: `The full result of this game: ${linkTo(`/games/${gameId}`)}. You get this message because e-mail notifications are on in your profile.`,
        }),
      });
    }
    markGameHolds(tx, clock, gameId, 'capturing');
    return true;
  });
  if (!settled) return false;
  await moveHolds(deps, holdsToMove(db, gameId));
  return true;
}

export async function settleDueGames(deps: GameDeps, now: number): Promise<number[]> {
  const due = deps.db
    .select({ id: games.id })
    .from(games)
    .where(and(eq(games.status, 'active'), lte(games.endTime, now)))
    .all();
  const settled: number[] = [];
  const step = slicer(GAMES_PER_SLICE);
  for (const { id } of due) {
    await step();
    if (await settleGame(deps, id)) settled.push(id);
  }
  return settled;
}

/**
 * Holds still 'authorized' on a game that has ended (left by an older version, or by a
 * crash before 'capturing'/'voiding' existed) are marked for capture or release here.
 */
export function markLeftoverHolds(deps: GameDeps): void {
  const { db, clock } = deps;
  const open = db
    .selectDistinct({ gameId: plays.gameId, status: games.status })
    .from(payments)
    .innerJoin(plays, eq(payments.playId, plays.id))
    .innerJoin(games, eq(plays.gameId, games.id))
    .where(and(eq(payments.status, 'authorized'), inArray(games.status, ['completed', 'canceled'])))
    .all();
  for (const { gameId, status } of open) {
    db.transaction((tx) => {
      if (status === 'canceled') return markGameHolds(tx, clock, gameId, 'voiding');
      const entered = enteredPlays(tx, gameId).map((p) => p.id);
      if (entered.length) markGameHolds(tx, clock, gameId, 'capturing', entered);
      markGameHolds(tx, clock, gameId, 'voiding');
    });
  }
}

/** One tick: everything that is due, in order. Safe to run at any time, as often as wanted. */
export async function runGameJobs(deps: GameDeps, now = deps.clock.now()) {
  expirePendingPlays(deps, now);
  const started = await startDueGames(deps, now);
  const settled = await settleDueGames(deps, now);
  const canceled = await expireStaleGames(deps, now);
  return { started, settled, canceled };
}

/** POST /api/games/{id}/donate lives with the other prize moves (prizes.ts). */
export { donatePrize } from './prizes.ts';
export { GAMES_PER_SLICE } from './game-rows.ts';
