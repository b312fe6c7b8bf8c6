import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games, influencers, payments, plays, products, type Product } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { MetricsSource } from '../metrics.ts';
import { notify } from '../notifications.ts';
import { idempotencyKey, PaymentFailure, type PaymentGateway } from '../payments/gateway.ts';
import { findProfile } from '../profile.ts';

/*
 * Entering a game (DESIGN section 4): POST /api/plays picks five influencers for the product's
 * waiting game (opening one when there is none), then POST /api/payments authorizes $1 on the
 * card on file. Only then does the play count as an entry.
 */

export interface GameDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
  metrics: MetricsSource;
}

export const ENTRY_FEE_CENTS = 100;
export const INFLUENCERS_PER_PLAY = 5;
/** A play whose $1 was not authorized within this time never counts. */
export const PENDING_PLAY_MS = 15 * 60 * 1000;

/** DESIGN section 4: enough $1 entries to cover the price, and never fewer than two players. */
export function requiredParticipantsFor(priceCents: number): number {
  return Math.max(2, Math.ceil(priceCents / 100));
}

export const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';

function playableProduct(db: Db, productId: unknown): Product {
  const id = Number(productId);
  const product = Number.isSafeInteger(id) && id > 0 ? db.select().from(products).where(eq(products.id, id)).get() : undefined;
  if (!product) throw new DomainError(404, 'Product not found');
  if (!product.playEnabled) throw new DomainError(409, 'Games are not open for this product.');
  if (product.quantity <= 0) throw new DomainError(409, 'This product is out of stock, so no game can be played for it right now.');
  return product;
}

function requireCardOnFile(db: Db, userId: number) {
  const profile = findProfile(db, userId);
  if (!profile?.gatewayCardId) {
    throw new DomainError(402, 'Add a payment card to your profile to play.', undefined, { code: PAYMENT_METHOD_REQUIRED });
  }
  return profile;
}

function checkInfluencers(db: Db, value: unknown): string[] {
  const message = 'Please select exactly 5 influencers.';
  if (!Array.isArray(value)) throw new DomainError(400, message, { influencerIds: message });
  const ids = value.map((id) => String(id).trim());
  const numeric = ids.map(Number);
  if (ids.length !== INFLUENCERS_PER_PLAY || new Set(numeric).size !== INFLUENCERS_PER_PLAY || numeric.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new DomainError(400, message, { influencerIds: message });
  }
  const known = db.select({ id: influencers.id }).from(influencers).where(inArray(influencers.id, numeric)).all();
  if (known.length !== INFLUENCERS_PER_PLAY) {
    const unknown = 'One of the chosen influencers does not exist.';
    throw new DomainError(400, unknown, { influencerIds: unknown });
  }
  return numeric.map(String);
}

/** The product's waiting game, opened when there is none. Runs inside the caller's transaction. */
function waitingGame(tx: Db, product: Product, now: number) {
  const open = tx.select().from(games).where(and(eq(games.productId, product.id), eq(games.status, 'waiting'))).get();
  if (open) return open;
  return tx
    .insert(games)
    .values({ productId: product.id, status: 'waiting', requiredParticipants: requiredParticipantsFor(product.priceCents), createdAt: now })
    .returning()
    .get();
}

export interface PlayView {
  id: number;
  playId: number;
  gameId: number;
  productId: number;
  influencerIds: string[];
  status: string;
  createdAt: number;
}

/** POST /api/plays: five influencers for the product's waiting game; pending until paid. */
export function createPlay(deps: GameDeps, userId: number, input: { productId?: unknown; influencerIds?: unknown }): PlayView {
  const { db, clock } = deps;
  const product = playableProduct(db, input.productId);
  const influencerIds = checkInfluencers(db, input.influencerIds);
  requireCardOnFile(db, userId);
  const now = clock.now();
  const play = db.transaction((tx) => {
    const game = waitingGame(tx as unknown as Db, product, now);
    const startsAt = effectiveStart(tx as unknown as Db, game);
    if (startsAt !== null && startsAt <= now) throw new DomainError(409, 'This game is starting right now. Join the next one in a moment!');
    const mine = tx.select().from(plays).where(and(eq(plays.gameId, game.id), eq(plays.userId, userId))).get();
    if (mine?.status === 'entered') throw new DomainError(409, 'You have already joined this game.');
    if (mine) {
      // Not paid yet: the new picks replace the old ones and the 15 minutes start again.
      return tx.update(plays).set({ influencerIds, status: 'pending', createdAt: now }).where(eq(plays.id, mine.id)).returning().get();
    }
    return tx.insert(plays).values({ productId: product.id, gameId: game.id, userId, influencerIds, status: 'pending', createdAt: now }).returning().get();
  });
  return { id: play.id, playId: play.id, gameId: play.gameId, productId: play.productId, influencerIds: play.influencerIds, status: play.status, createdAt: play.createdAt };
}

/**
 * When a game starts: its startTime once active; for a waiting game that has filled, the top of
 * the hour after it filled (even before the tick that starts it has run); otherwise null.
 */
export function effectiveStart(db: Db, game: typeof games.$inferSelect): number | null {
  if (game.startTime !== null) return game.startTime;
  const entries = db
    .select({ at: plays.enteredAt })
    .from(plays)
    .where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered')))
    .orderBy(plays.enteredAt)
    .all();
  const filledAt = entries[game.requiredParticipants - 1]?.at;
  return filledAt == null ? null : Math.ceil(filledAt / HOUR) * HOUR;
}

const HOUR = 60 * 60 * 1000;

export function enteredCount(db: Db, gameId: number): number {
  return db.select({ n: count() }).from(plays).where(and(eq(plays.gameId, gameId), eq(plays.status, 'entered'))).get()?.n ?? 0;
}

/**
 * POST /api/payments ({ productId, amount: 1, type: 'play' }): authorizes the $1 entry of the
 * user's pending play for that product. A decline leaves no entry and says so.
 */
export async function payForPlay(deps: GameDeps, userId: number, input: { productId?: unknown; amount?: unknown; type?: unknown }) {
  const { db, clock, gateway } = deps;
  if (input.type !== 'play') throw new DomainError(400, "Only game entries are paid here (type 'play').", { type: "Only game entries are paid here (type 'play')." });
  if (Number(input.amount) !== ENTRY_FEE_CENTS / 100) throw new DomainError(400, 'A game entry costs $1.', { amount: 'A game entry costs $1.' });
  const productId = Number(input.productId);
  const now = clock.now();
  const play = Number.isSafeInteger(productId)
    ? db
        .select()
        .from(plays)
        .where(and(eq(plays.productId, productId), eq(plays.userId, userId), eq(plays.status, 'pending'), gte(plays.createdAt, now - PENDING_PLAY_MS)))
        .orderBy(desc(plays.createdAt))
        .get()
    : undefined;
  if (!play) throw new DomainError(404, 'There is no play waiting for payment on this product. Pick your 5 influencers first.');
  const game = db.select().from(games).where(eq(games.id, play.gameId)).get()!;
  const product = db.select().from(products).where(eq(products.id, play.productId)).get()!;
  const startsAt = effectiveStart(db, game);
  if (game.status !== 'waiting' || (startsAt !== null && startsAt <= now)) {
    db.update(plays).set({ status: 'void' }).where(eq(plays.id, play.id)).run();
    throw new DomainError(409, 'This game has already started. Join the next one!');
  }
  const profile = requireCardOnFile(db, userId);

  const key = idempotencyKey('play', play.id, 'auth', play.createdAt.toString(36));
  const paymentRow = db
    .insert(payments)
    .values({ userId, kind: 'play_authorization', status: 'pending', amountCents: ENTRY_FEE_CENTS, playId: play.id, gateway: gateway.name, idempotencyKey: key, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: payments.idempotencyKey, set: { updatedAt: now } })
    .returning()
    .get();
  try {
    const held = await gateway.authorize({
      sourceId: profile.gatewayCardId!,
      customerId: profile.gatewayCustomerId,
      amountCents: ENTRY_FEE_CENTS,
      idempotencyKey: key,
      note: `CSA game #${game.id} entry`,
    });
    const entered = db.transaction((tx) => {
      tx.update(payments).set({ status: 'authorized', gatewayPaymentId: held.id, updatedAt: clock.now() }).where(eq(payments.id, paymentRow.id)).run();
      // The game may have started while the card was asked; then the hold is released below.
      const current = tx.select().from(games).where(eq(games.id, game.id)).get()!;
      const starts = effectiveStart(tx as unknown as Db, current);
      if (current.status !== 'waiting' || (starts !== null && starts <= clock.now())) return false;
      tx.update(plays).set({ status: 'entered', enteredAt: clock.now() }).where(eq(plays.id, play.id)).run();
      return true;
    });
    if (!entered) {
      await releaseHold(deps, paymentRow.id, held.id);
      db.update(plays).set({ status: 'void' }).where(eq(plays.id, play.id)).run();
      throw new DomainError(409, 'This game has already started. Your $1 hold was released; join the next one!');
    }
    notify(db, clock, userId, {
      type: 'payment_success',
      title: 'Payment Successful',
      message: `Your payment of $1 for ${product.brand} game entry has been processed.`,
      actionUrl: '/scoreboard?tab=my-games',
      actionText: 'My Games',
      productId: product.id,
      gameId: game.id,
    });
    announceReadiness(deps, game.id, product, game.requiredParticipants);
    return { id: play.id, playId: play.id, paymentId: paymentRow.id, status: 'entered', gameId: game.id, productId: product.id, amount: 1 };
  } catch (error) {
    if (!(error instanceof PaymentFailure)) throw error;
    db.transaction((tx) => {
      tx.update(payments).set({ status: 'failed', errorCode: error.code, updatedAt: clock.now() }).where(eq(payments.id, paymentRow.id)).run();
      tx.update(plays).set({ status: 'void' }).where(eq(plays.id, play.id)).run();
    });
    notify(db, clock, userId, {
      type: 'payment_failed',
      title: 'Payment Failed',
      message: `There was an issue processing your payment for ${product.brand} game entry.`,
      actionUrl: '/profile?tab=payment',
      actionText: 'Update Payment Method',
      productId: product.id,
      gameId: game.id,
    });
    const message = error.declined ? 'Your card was declined, so you were not entered. Update your payment method and try again.' : 'The payment could not be processed. Please try again.';
    throw new DomainError(error.declined ? 402 : 502, message, undefined, { code: error.code });
  }
}

async function releaseHold(deps: GameDeps, paymentRowId: number, gatewayPaymentId: string): Promise<void> {
  const claimed = deps.db
    .update(payments)
    .set({ status: 'voided', updatedAt: deps.clock.now() })
    .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'authorized')))
    .returning({ id: payments.id })
    .all();
  if (claimed.length) await deps.gateway.void(gatewayPaymentId).catch(() => undefined);
}

/** game_ready: tells the players when one entry is missing, and when the game is full. */
function announceReadiness(deps: GameDeps, gameId: number, product: Product, required: number): void {
  const entries = enteredCount(deps.db, gameId);
  if (entries !== required - 1 && entries !== required) return;
  const players = deps.db.select({ userId: plays.userId }).from(plays).where(and(eq(plays.gameId, gameId), eq(plays.status, 'entered'))).all();
  for (const { userId } of players) {
    notify(deps.db, deps.clock, userId, {
      type: 'game_ready',
      title: entries === required ? 'Game ready' : 'Almost ready',
      message:
        entries === required ? `The game for ${product.brand} is full and starts at the top of the hour.` : `Only needed 1 more player for the ${product.brand} game to start.`,
      actionUrl: '/scoreboard?tab=active',
      actionText: 'View Game',
      productId: product.id,
      gameId,
    });
  }
}
