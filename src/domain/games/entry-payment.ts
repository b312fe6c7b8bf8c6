import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { games, payments, plays, type Game, type Play, type Product } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { notify } from '../accounts/notifications.ts';
import { asPaymentFailure, paymentUnderKey } from '../payments/gateway.ts';
import { type CardGate, withCardAttempt } from '../payments/card-attempts.ts';
import { confirmPayment, createPayment, paymentRow, refusePayment, settleFromGateway } from '../payments/engine.ts';
import { gatewayKey } from '../payments/keys.ts';
import { requireCompleteProfile } from '../accounts/profile.ts';
import type { EntryPaymentBody } from '../../shared/schemas/games.ts';
import { ENTRY_FEE_CENTS, ENTRY_IN_PROGRESS, enteredCount, type GameDeps, isFull, moveToGameWithRoom, requireCardOnFile, requirePrizeCanGo } from './entry.ts';
import { requireMayPlay } from '../accounts/responsible-play.ts';
import { gameStart, PENDING_PLAY_MS } from './schedule.ts';
import { entryAnswer } from './entry-answer.ts';
import { gameSizeOf, inSize } from './game-rows.ts';

/*
 * Paying for an entry (POST /api/payments), as named steps: claim the play (claimEntryPayment),
 * ask the gateway for the $1 hold, then the money engine confirms or refuses it
 * (payments/engine.ts) and the play's purpose (play-purpose.ts) enters the play or releases the
 * hold. An unknown outcome is settled from what the gateway holds under our key, here or by the
 * reconciler.
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
  const pending = waitingPlayOf(db, userId, productId, clock.now(), input.variantId);
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
    if (held.status === 'APPROVED') await confirmPayment(deps, paymentRowId, held);
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (!failure.uncertain) await refusePayment(deps, paymentRowId, failure);
    else {
      const found = await paymentUnderKey(gateway, key, play.createdAt);
      const row = paymentRow(db, paymentRowId);
      if (row && found) await settleFromGateway(deps, row, found);
    }
    return entryAnswer(deps, play.id, paymentRowId, failure);
  }
  return entryAnswer(deps, play.id, paymentRowId, null);
}

/** The player's pick for the product (in that size, when named) still waiting for its $1 (or being paid), if any. */
export function waitingPlayOf(db: Queryable, userId: number, productId: number, now: number, variantId?: number) {
  if (!Number.isSafeInteger(productId)) return undefined;
  const since = now - PENDING_PLAY_MS;
  return variantId === undefined ? waitingPlay(db).get({ productId, userId, since }) : waitingPlayOfSize(db).get({ productId, userId, since, variantId });
}

/* Every entry and every game page asks, with or without a size: two shapes, each built once (db/prepared.ts). */
const waitingPlayQuery = (ofSize: boolean) =>
  preparedOnce((db) =>
    db
      .select()
      .from(plays)
      .where(
        and(
          eq(plays.productId, sql.placeholder('productId')),
          ofSize ? sql`${plays.gameId} in (select id from games where variant_id = ${sql.placeholder('variantId')})` : undefined,
          eq(plays.userId, sql.placeholder('userId')),
          inArray(plays.status, ['pending', 'authorizing']),
          gte(plays.createdAt, sql.placeholder('since')),
        ),
      )
      .orderBy(desc(plays.createdAt))
      .prepare(),
  );
const waitingPlay = waitingPlayQuery(false);
const waitingPlayOfSize = waitingPlayQuery(true);

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

/* The claim's steps, built once (db/prepared.ts); donateIfWon goes in with its column's encoding. */
const claimPlay = preparedOnce((db) =>
  db
    .update(plays)
    .set({ status: 'authorizing', donateIfWon: sql`${sql.placeholder('donateIfWon')}` })
    .where(and(eq(plays.id, sql.placeholder('id')), eq(plays.status, 'pending')))
    .returning({ id: plays.id })
    .prepare(),
);
const triesOfPlay = preparedOnce((db) =>
  db
    .select({ n: count() })
    .from(payments)
    .where(eq(payments.playId, sql.placeholder('playId')))
    .prepare(),
);
const heldForPlay = preparedOnce((db) =>
  db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.playId, sql.placeholder('playId')), inArray(payments.status, ['authorized', 'capturing', 'captured'])))
    .prepare(),
);

function claimEntryPayment(deps: GameDeps, userId: number, input: EntryPaymentBody, profile: ReturnType<typeof requireCardOnFile>) {
  const { db, clock } = deps;
  const now = clock.now();
  return db.transaction((tx) => {
    // Inside the claim: another process's claim commits before this one begins, so its entry is counted here.
    requireMayPlay(tx, clock, userId, deps.dailyEntryLimit);
    const play = waitingPlayOf(tx, userId, input.productId, now, input.variantId);
    if (!play) throw new DomainError(404, 'There is no play waiting for payment on this product. Pick your 5 influencers first.');
    if (play.status === 'authorizing') throw new DomainError(409, ENTRY_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    if (!gameTakingPlay(deps, tx, play, now)) return { tooLate: true as const };
    const donateIfWon = input.donateIfWon ?? play.donateIfWon;
    requirePrizeCanGo(profile, donateIfWon);
    const moved = claimPlay(tx).all({ id: play.id, donateIfWon: plays.donateIfWon.mapToDriverValue(donateIfWon) });
    if (moved.length === 0) throw new DomainError(409, ENTRY_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    // Each try is its own hold: a declined one (its row 'failed') never blocks the next, even
    // when the re-pick fell in the same millisecond (a manual clock, a quick retry).
    const tries = triesOfPlay(tx).get({ playId: play.id })?.n ?? 0;
    // A first try keeps the key shape of every earlier version; later tries add their number.
    const key = gatewayKey(db, 'hold', play.id, play.createdAt.toString(36), ...(tries === 0 ? [] : [tries]));
    const held = heldForPlay(tx).get({ playId: play.id });
    if (held) throw new DomainError(409, 'This entry was already paid for. Pick your influencers again to enter once more.');
    const row = createPayment(tx, deps, {
      userId,
      kind: 'play_authorization',
      status: 'authorizing',
      amountCents: ENTRY_FEE_CENTS,
      playId: play.id,
      idempotencyKey: key,
    });
    return { tooLate: false as const, play, paymentRowId: row.id, key };
  });
}

/** game_ready: tells the players when one entry is missing, and when the game is full. Runs in the caller's transaction. */
export function announceReadiness(tx: Queryable, clock: Clock, gameId: number, product: Product, required: number): void {
  const entries = enteredCount(tx, gameId);
  if (entries !== required - 1 && entries !== required) return;
  const full = entries === required;
  const game = tx.select({ productId: games.productId, variantId: games.variantId }).from(games).where(eq(games.id, gameId)).get();
  const name = `${product.brand}${game ? inSize(gameSizeOf(tx, game)) : ''}`;
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
      message: full ? `The game for ${name} is full and starts at the top of the hour.` : `Only needed 1 more player for the game for ${name} to start.`,
      actionUrl: '/scoreboard?tab=active',
      actionText: 'View Game',
      productId: product.id,
      gameId,
    });
  }
}
