import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { games, payments, plays, products, type Game, type Play, type Product } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { productLabel } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import { notify } from '../accounts/notifications.ts';
import { asPaymentFailure, paymentUnderKey, type GatewayPayment } from '../payments/gateway.ts';
import { type CardGate, withCardAttempt } from '../payments/card-attempts.ts';
import { gatewayKey } from '../payments/keys.ts';
import { holdForReview, mismatchOf } from '../payments/matching.ts';
import { leaseUntil, NOT_TAKEN_AFTER_MS } from '../payments/states.ts';
import { requireCompleteProfile } from '../accounts/profile.ts';
import type { EntryPaymentBody } from '../../shared/schemas/games.ts';
import { ENTRY_FEE_CENTS, ENTRY_IN_PROGRESS, enteredCount, type GameDeps, isFull, moveToGameWithRoom, requireCardOnFile, requirePrizeCanGo } from './entry.ts';
import { moveHolds } from './holds.ts';
import { requireMayPlay } from '../accounts/responsible-play.ts';
import { gameStart, PENDING_PLAY_MS } from './schedule.ts';
import { entryAnswer, updateCardUrl } from './entry-answer.ts';

/*
 * Paying for an entry (POST /api/payments), as named steps: claim the play (claimEntryPayment),
 * ask the gateway for the $1 hold, then confirm it (confirmHold: the play is entered, or released
 * when its game no longer takes it) or roll it back (rollBackHold). An unknown outcome is settled
 * from what the gateway holds under our key (settleHoldFromGateway), here or by the reconciler.
 */

/**
 * POST /api/payments ({ productId, amount: 1, type: 'play' }): authorizes the $1 entry of the
 * user's pending play for that product, in steps: claim (the play moves 'pending' ->
 * 'authorizing' with its payment row, so a second payment or a re-pick is refused while the
 * hold is asked for), authorize, then confirm or roll back. An unknown outcome is resolved by
 * asking the gateway, here or by the reconciler, never by guessing.
 */
export async function payForPlay(deps: GameDeps, userId: number, input: EntryPaymentBody, clientAddress: string) {
  const { db, clock } = deps;
  const { productId } = input;
  const profile = requireCardOnFile(db, userId);
  requireCompleteProfile(db, clock, userId);
  // Refused before a card slot is taken: no hold is asked for a prize that could not be received.
  const pending = waitingPlayOf(db, userId, productId, clock.now());
  if (pending) requirePrizeCanGo(profile, input.donateIfWon ?? pending.donateIfWon);
  // The card slot comes before the claim: a 429 leaves the play pending and writes no payment row.
  return withCardAttempt(deps, { userId, address: clientAddress }, (gate) => holdEntry(deps, userId, input, profile, gate));
}

async function holdEntry(deps: GameDeps, userId: number, input: EntryPaymentBody, profile: ReturnType<typeof requireCardOnFile>, gate: CardGate) {
  const { db, gateway } = deps;
  const claim = claimEntryPayment(deps, userId, input, profile);
  if (claim.tooLate) throw new DomainError(409, 'This game has already started. Join the next one!');
  const { play, paymentRowId, key } = claim;
  try {
    const held = await gate.call(() =>
      gateway.authorize({
        sourceId: profile.gatewayCardId!,
        customerId: profile.gatewayCustomerId,
        amountCents: ENTRY_FEE_CENTS,
        idempotencyKey: key,
        note: `CSA game #${play.gameId} entry`,
      }),
    );
    if (held.status === 'APPROVED') await confirmHold(deps, paymentRowId, held);
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (!failure.uncertain) rollBackHold(deps, paymentRowId, failure);
    else {
      const found = await paymentUnderKey(gateway, key, play.createdAt);
      const row = db.select().from(payments).where(eq(payments.id, paymentRowId)).get();
      if (row && found) await settleHoldFromGateway(deps, row, found);
    }
    return entryAnswer(deps, play.id, paymentRowId, failure);
  }
  return entryAnswer(deps, play.id, paymentRowId, null);
}

/** The player's pick for the product still waiting for its $1 (or being paid), if any. */
export function waitingPlayOf(db: Queryable, userId: number, productId: number, now: number) {
  if (!Number.isSafeInteger(productId)) return undefined;
  return db
    .select()
    .from(plays)
    .where(
      and(
        eq(plays.productId, productId),
        eq(plays.userId, userId),
        inArray(plays.status, ['pending', 'authorizing']),
        gte(plays.createdAt, now - PENDING_PLAY_MS),
      ),
    )
    .orderBy(desc(plays.createdAt))
    .get();
}

/**
 * The game a claimed play enters: its own, or the next with room when its own filled meanwhile
 * (play.gameId follows). Null, with the play void, when the game no longer takes entries
 * (started, or starting now). Runs in the claim's transaction; shared by the $1 hold and a free
 * entry (promotions/free-entry-use.ts).
 */
export function gameTakingPlay(deps: GameDeps, tx: Queryable, play: Play, now: number): Game | null {
  let game = tx.select().from(games).where(eq(games.id, play.gameId)).get()!;
  if (game.status === 'waiting' && isFull(tx, game)) {
    const next = moveToGameWithRoom(deps, tx, play, now);
    if (!next) throw new DomainError(409, 'This game filled up while you were choosing. Pick your influencers again to join the next game.');
    game = next;
    play.gameId = next.id;
  }
  const startsAt = gameStart(tx, game);
  if (game.status !== 'waiting' || (startsAt !== null && startsAt <= now)) {
    tx.update(plays).set({ status: 'void' }).where(eq(plays.id, play.id)).run();
    return null;
  }
  return game;
}

function claimEntryPayment(deps: GameDeps, userId: number, input: EntryPaymentBody, profile: ReturnType<typeof requireCardOnFile>) {
  const { db, clock, gateway } = deps;
  const now = clock.now();
  return db.transaction((tx) => {
    // Inside the claim: another process's claim commits before this one begins, so its entry is counted here.
    requireMayPlay(tx, clock, userId, deps.dailyEntryLimit);
    const play = waitingPlayOf(tx, userId, input.productId, now);
    if (!play) throw new DomainError(404, 'There is no play waiting for payment on this product. Pick your 5 influencers first.');
    if (play.status === 'authorizing') throw new DomainError(409, ENTRY_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    if (!gameTakingPlay(deps, tx, play, now)) return { tooLate: true as const };
    const donateIfWon = input.donateIfWon ?? play.donateIfWon;
    requirePrizeCanGo(profile, donateIfWon);
    const moved = tx
      .update(plays)
      .set({ status: 'authorizing', donateIfWon })
      .where(and(eq(plays.id, play.id), eq(plays.status, 'pending')))
      .returning({ id: plays.id })
      .all();
    if (moved.length === 0) throw new DomainError(409, ENTRY_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    // Each try is its own hold: a declined one (its row 'failed') never blocks the next, even
    // when the re-pick fell in the same millisecond (a manual clock, a quick retry).
    const tries = tx.select({ n: count() }).from(payments).where(eq(payments.playId, play.id)).get()?.n ?? 0;
    // A first try keeps the key shape of every earlier version; later tries add their number.
    const key = gatewayKey(db, 'hold', play.id, play.createdAt.toString(36), ...(tries === 0 ? [] : [tries]));
    const held = tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.playId, play.id), inArray(payments.status, ['authorized', 'capturing', 'captured'])))
      .get();
    if (held) throw new DomainError(409, 'This entry was already paid for. Pick your influencers again to enter once more.');
    const row = tx
      .insert(payments)
      .values({
        userId,
        kind: 'play_authorization',
        status: 'authorizing',
        amountCents: ENTRY_FEE_CENTS,
        playId: play.id,
        gateway: gateway.name,
        idempotencyKey: key,
        attempts: 1,
        nextAttemptAt: leaseUntil(clock),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: payments.id })
      .get();
    return { tooLate: false as const, play, paymentRowId: row.id, key };
  });
}

/**
 * The hold went through: the play is entered when its game still takes entries (with the
 * payment_success and game_ready notifications in the same transaction); otherwise the play is
 * void and the hold is released at once.
 */
export async function confirmHold(deps: GameDeps, paymentRowId: number, held: GatewayPayment): Promise<'entered' | 'released' | 'gone' | 'mismatch'> {
  const { db, clock } = deps;
  const outcome = db.transaction((tx) => {
    const now = clock.now();
    const current = tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'authorizing')))
      .get();
    const mismatch = current ? mismatchOf(tx, current, held) : null;
    if (current && mismatch) return { current, mismatch };
    const row = tx
      .update(payments)
      .set({ status: 'authorized', gatewayPaymentId: held.id, errorCode: null, errorDetail: null, nextAttemptAt: null, updatedAt: now })
      .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'authorizing')))
      .returning()
      .get();
    if (!row?.playId) return 'gone' as const;
    const play = tx.select().from(plays).where(eq(plays.id, row.playId)).get();
    let game = play ? tx.select().from(games).where(eq(games.id, play.gameId)).get() : undefined;
    // Another entry took the last place while this hold was asked for: the next game takes this one.
    if (play?.status === 'authorizing' && game?.status === 'waiting' && isFull(tx, game)) game = moveToGameWithRoom(deps, tx, play, now) ?? undefined;
    const starts = game ? gameStart(tx, game) : null;
    const open = play?.status === 'authorizing' && game?.status === 'waiting' && !(starts !== null && starts <= now);
    if (!open || !play || !game) {
      if (play)
        tx.update(plays)
          .set({ status: 'void' })
          .where(and(eq(plays.id, play.id), inArray(plays.status, ['pending', 'authorizing'])))
          .run();
      tx.update(payments)
        .set({ status: 'voiding', attempts: 0, nextAttemptAt: leaseUntil(clock) })
        .where(eq(payments.id, row.id))
        .run();
      return 'released' as const;
    }
    tx.update(plays).set({ status: 'entered', enteredAt: now, gameId: game.id }).where(eq(plays.id, play.id)).run();
    const product = tx.select().from(products).where(eq(products.id, play.productId)).get()!;
    notify(tx, clock, play.userId, {
      type: 'payment_success',
      eventKey: `payment:${row.id}:success`,
      title: 'Payment Successful',
      // Issue 27: the dollar is only held until the game settles (captured) or is canceled (released).
      message: `Your $1 game entry for ${productLabel(product)} is held on your card: it is charged when the game is settled, and released if the game is canceled.`,
      actionUrl: '/scoreboard?tab=my-games',
      actionText: 'My Games',
      productId: product.id,
      gameId: game.id,
    });
    announceReadiness(tx, clock, game.id, product, game.requiredParticipants);
    return 'entered' as const;
  });
  if (typeof outcome === 'object') {
    holdForReview(deps, outcome.current, outcome.mismatch);
    return 'mismatch';
  }
  if (outcome === 'released') {
    const row = db.select().from(payments).where(eq(payments.id, paymentRowId)).get()!;
    await moveHolds(deps, [row]);
  }
  return outcome;
}

/** The hold was refused: no entry, the player is told. */
export function rollBackHold(deps: GameDeps, paymentRowId: number, failure: { code: string; detail: string; declined?: boolean }): boolean {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const row = tx
      .update(payments)
      .set({ status: 'failed', errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null, updatedAt: clock.now() })
      .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'authorizing')))
      .returning()
      .get();
    if (!row?.playId) return false;
    const play = tx
      .update(plays)
      .set({ status: 'void' })
      .where(and(eq(plays.id, row.playId), eq(plays.status, 'authorizing')))
      .returning()
      .get();
    const product = play ? tx.select().from(products).where(eq(products.id, play.productId)).get() : undefined;
    if (play && product) {
      notify(tx, clock, play.userId, {
        type: 'payment_failed',
        eventKey: `payment:${row.id}:failed`,
        title: 'Payment Failed',
        message: `There was an issue processing your payment for ${product.brand} game entry.`,
        actionUrl: updateCardUrl(product.id),
        actionText: 'Update Payment Method',
        productId: product.id,
        gameId: play.gameId,
      });
    }
    return true;
  });
}

/** Ends a hold from what the gateway holds under our key, once it matches the row (see settleChargeFromGateway). */
export async function settleHoldFromGateway(deps: GameDeps, row: typeof payments.$inferSelect, found: GatewayPayment | undefined): Promise<void> {
  const mismatch = found ? mismatchOf(deps.db, row, found) : null;
  if (mismatch) holdForReview(deps, row, mismatch);
  else if (found?.status === 'APPROVED' || found?.status === 'COMPLETED') await confirmHold(deps, row.id, found);
  else if (found?.status === 'FAILED' || found?.status === 'CANCELED')
    rollBackHold(deps, row.id, { code: 'DECLINED', detail: `The gateway answered ${found.status}.`, declined: true });
  else if (!found && row.updatedAt <= deps.clock.now() - NOT_TAKEN_AFTER_MS)
    rollBackHold(deps, row.id, { code: 'NOT_TAKEN', detail: 'The gateway never took this hold.', declined: false });
}

/** game_ready: tells the players when one entry is missing, and when the game is full. Runs in the caller's transaction. */
export function announceReadiness(tx: Queryable, clock: Clock, gameId: number, product: Product, required: number): void {
  const entries = enteredCount(tx, gameId);
  if (entries !== required - 1 && entries !== required) return;
  const full = entries === required;
  const players = tx
    .select({ userId: plays.userId })
    .from(plays)
    .where(and(eq(plays.gameId, gameId), eq(plays.status, 'entered')))
    .all();
  for (const { userId } of players) {
    notify(tx, clock, userId, {
      type: 'game_ready',
      eventKey: `game:${gameId}:${full ? 'full' : 'almost'}`,
      title: full ? 'Game ready' : 'Almost ready',
      message: full
        ? `The game for ${product.brand} is full and starts at the top of the hour.`
        : `Only needed 1 more player for the game for ${product.brand} to start.`,
      actionUrl: '/scoreboard?tab=active',
      actionText: 'View Game',
      productId: product.id,
      gameId,
    });
  }
}
