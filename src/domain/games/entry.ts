import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { games, influencers, plays, products, productVariants, type Game, type MetricsSourceName, type Play, type Product } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { requireStillSold } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import type { MetricsSource } from './metrics.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { findProfile, requireCompleteProfile } from '../accounts/profile.ts';
import { requireMayPlay } from '../accounts/responsible-play.ts';
import { newGameSeed } from './seeds.ts';
import { INFLUENCERS_PER_PLAY } from '../../shared/schemas/games.ts';
import type { PlayBody } from '../../shared/schemas/games.ts';
import { gameStart } from './schedule.ts';
import { EVERY_UNIT_PROMISED, everySizeUnitPromised, GAMES_NOT_OPEN, NO_GAME_SOLD_OUT, sizeSoldOut } from './openness.ts';
import { OUTSIDE_DELIVERY_MESSAGE, PRIZE_NOT_DELIVERABLE, prizeDeliveryFor } from '../../shared/prize-delivery.ts';
import { chooseVariant, sizeLabelOf, variantById, variantsOf, type Variant } from '../inventory/variants.ts';

/*
 * Entering a game (DESIGN section 4): POST /api/plays picks five influencers for the waiting game
 * of the product in the chosen size (opening one when there is none, here), then POST /api/payments authorizes $1 on
 * the card on file (entry-payment.ts). Only then does the play count as an entry.
 */

export interface GameDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
  metrics: MetricsSource;
  /** The store's daily entry limit (and the most a player may choose). */
  dailyEntryLimit?: number;
}

export const ENTRY_FEE_CENTS = 100;
export { INFLUENCERS_PER_PLAY } from '../../shared/schemas/games.ts';

/** DESIGN section 4: enough $1 entries to cover the price, and never fewer than two players. */
export function requiredParticipantsFor(priceCents: number): number {
  return Math.max(2, Math.ceil(priceCents / 100));
}

export const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';

function playableProduct(db: Queryable, id: number): Product {
  const product = db.select().from(products).where(eq(products.id, id)).get();
  if (!product) throw new DomainError(404, 'Product not found');
  requireStillSold(product);
  if (!product.playEnabled) throw new DomainError(409, GAMES_NOT_OPEN);
  if (product.quantity <= 0) throw new DomainError(409, NO_GAME_SOLD_OUT);
  return product;
}

export function requireCardOnFile(db: Queryable, userId: number) {
  const profile = findProfile(db, userId);
  if (!profile?.gatewayCardId) {
    throw new DomainError(402, 'Add a payment card to your profile to play.', undefined, { code: PAYMENT_METHOD_REQUIRED });
  }
  return profile;
}

/**
 * Eligibility before money (issue 27): a prize goes by local delivery in 92651 only, so a player
 * whose address is elsewhere enters only having said that a win goes to charity. Checked on the
 * play and again before the hold, so no $1 is held for a prize that could not be received.
 */
export function requirePrizeCanGo(profile: { address: { postalCode?: string } | null }, donateIfWon: boolean): void {
  if (donateIfWon || prizeDeliveryFor(profile.address?.postalCode) !== 'elsewhere') return;
  throw new DomainError(422, OUTSIDE_DELIVERY_MESSAGE, { donateIfWon: OUTSIDE_DELIVERY_MESSAGE }, { code: PRIZE_NOT_DELIVERABLE });
}

/** The picks, already five distinct ids by the request schema, must be influencers still in the game. */
function checkInfluencers(db: Queryable, numeric: number[]): string[] {
  const known = db
    .select({ id: influencers.id })
    .from(influencers)
    .where(and(inArray(influencers.id, numeric), isNull(influencers.retiredAt)))
    .all();
  if (known.length !== INFLUENCERS_PER_PLAY) {
    const unknown = 'One of the chosen influencers does not exist.';
    throw new DomainError(400, unknown, { influencerIds: unknown });
  }
  return numeric.map(String);
}

/**
 * The size's waiting game that still has room, opened when there is none (issue 38: a game is
 * for one size). A game takes exactly `requiredParticipants` entries; a full game waits for its
 * hour while the next entrants fill the next one. Runs inside the caller's transaction.
 */
function gameWithRoom(tx: Queryable, product: Product, variant: Variant, now: number, metricsSource: MetricsSourceName) {
  // One statement however many full games wait for their hour (the soak's 900 waiting games
  // cost 900 statements an entry when each was counted from here).
  const open = openGameOfSize(tx).get({ variantId: variant.id });
  if (open) return open;
  const waiting = waitingGamesOfSize(tx).get({ variantId: variant.id })?.n ?? 0;
  // Each full game takes one unit of its size when it starts: a new game opens only while a unit of that size is left for it.
  const stock = variantQuantity(tx).get({ variantId: variant.id })?.quantity ?? 0;
  const bySize = variantsOf(tx, product.id).length > 1;
  if (stock <= 0 && bySize) throw new DomainError(409, sizeSoldOut(variant.size), { variantId: sizeSoldOut(variant.size) });
  if (stock <= waiting) throw new DomainError(409, bySize ? everySizeUnitPromised(variant.size) : EVERY_UNIT_PROMISED);
  const { seed, seedHash } = newGameSeed();
  return insertGame(tx).get({
    productId: product.id,
    variantId: variant.id,
    requiredParticipants: requiredParticipantsFor(product.priceCents),
    metricsSource,
    seed,
    seedHash,
    createdAt: now,
  })!;
}

/*
 * Every entry asks for its size's game with room: built once (db/prepared.ts). The size is bound
 * as `cast(? as integer)` where the statement also has a subquery on the game's row: a bare `?`
 * could make SQLite compile it again for each new value (see accounts/sessions.ts).
 */
const openGameOfSize = preparedOnce((db) =>
  db
    .select()
    .from(games)
    .where(
      and(
        eq(games.variantId, sql`cast(${sql.placeholder('variantId')} as integer)`),
        eq(games.status, 'waiting'),
        sql`(select count(*) from plays p where p.game_id = ${games.id} and p.status = 'entered') < ${games.requiredParticipants}`,
      ),
    )
    .orderBy(games.id)
    .limit(1)
    .prepare(),
);
const waitingGamesOfSize = preparedOnce((db) =>
  db
    .select({ n: count() })
    .from(games)
    .where(and(eq(games.variantId, sql.placeholder('variantId')), eq(games.status, 'waiting')))
    .prepare(),
);
const variantQuantity = preparedOnce((db) =>
  db
    .select({ quantity: productVariants.quantity })
    .from(productVariants)
    .where(eq(productVariants.id, sql.placeholder('variantId')))
    .prepare(),
);
const insertGame = preparedOnce((db) =>
  db
    .insert(games)
    .values({
      productId: sql.placeholder('productId'),
      variantId: sql.placeholder('variantId'),
      status: 'waiting',
      requiredParticipants: sql.placeholder('requiredParticipants'),
      metricsSource: sql.placeholder('metricsSource'),
      seed: sql.placeholder('seed'),
      seedHash: sql.placeholder('seedHash'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning()
    .prepare(),
);

/**
 * A play whose game filled while it was being paid moves to the product's next game with room,
 * unless the player already has a play there. Runs inside the caller's transaction.
 */
export function moveToGameWithRoom(deps: GameDeps, tx: Queryable, play: Play, now: number): Game | null {
  const product = tx.select().from(products).where(eq(products.id, play.productId)).get();
  const variantId = tx.select({ variantId: games.variantId }).from(games).where(eq(games.id, play.gameId)).get()?.variantId;
  const variant = variantId ? variantById(tx, variantId) : undefined;
  if (!product || !variant) return null;
  let game: Game;
  try {
    // The next game of the same size: the player chose it before paying.
    game = gameWithRoom(tx, product, variant, now, deps.metrics.name);
  } catch {
    return null;
  }
  const taken = tx
    .select({ id: plays.id })
    .from(plays)
    .where(and(eq(plays.gameId, game.id), eq(plays.userId, play.userId)))
    .get();
  if (taken) return null;
  tx.update(plays).set({ gameId: game.id }).where(eq(plays.id, play.id)).run();
  return game;
}

export function isFull(db: Queryable, game: Game): boolean {
  return enteredCount(db, game.id) >= game.requiredParticipants;
}

export interface PlayView {
  id: number;
  playId: number;
  gameId: number;
  productId: number;
  /** The size the game is for (issue 38), and its label ('' for a product without sizes to tell apart). */
  variantId: number;
  size: string;
  influencerIds: string[];
  status: string;
  donateIfWon: boolean;
  createdAt: number;
}

/*
 * A play's own reads and writes, built once (db/prepared.ts). An update's values go in as they
 * are (json and boolean columns take the column's own encoding at the call).
 */
const playInGame = preparedOnce((db) =>
  db
    .select()
    .from(plays)
    .where(and(eq(plays.gameId, sql.placeholder('gameId')), eq(plays.userId, sql.placeholder('userId'))))
    .prepare(),
);
const repickPlay = preparedOnce((db) =>
  db
    .update(plays)
    .set({
      influencerIds: sql`${sql.placeholder('influencerIds')}`,
      donateIfWon: sql`${sql.placeholder('donateIfWon')}`,
      status: 'pending',
      createdAt: sql`${sql.placeholder('createdAt')}`,
    })
    .where(eq(plays.id, sql.placeholder('id')))
    .returning()
    .prepare(),
);
const insertPlay = preparedOnce((db) =>
  db
    .insert(plays)
    .values({
      productId: sql.placeholder('productId'),
      gameId: sql.placeholder('gameId'),
      userId: sql.placeholder('userId'),
      influencerIds: sql.placeholder('influencerIds'),
      donateIfWon: sql.placeholder('donateIfWon'),
      status: 'pending',
      createdAt: sql.placeholder('createdAt'),
    })
    .returning()
    .prepare(),
);

/** POST /api/plays: five influencers for the product's waiting game; pending until paid. */
export function createPlay(deps: GameDeps, userId: number, input: PlayBody): PlayView {
  const { db, clock } = deps;
  const product = playableProduct(db, input.productId);
  // The size first: a product with several refuses a play that names none (400, nothing written).
  const variant = chooseVariant(db, product.id, input.variantId);
  const influencerIds = checkInfluencers(db, input.influencerIds);
  requireCardOnFile(db, userId);
  const profile = requireCompleteProfile(db, clock, userId);
  const donateIfWon = input.donateIfWon ?? false;
  requirePrizeCanGo(profile, donateIfWon);
  const now = clock.now();
  const play = db.transaction((tx) => {
    requireMayPlay(tx, clock, userId, deps.dailyEntryLimit);
    const game = gameWithRoom(tx, product, variant, now, deps.metrics.name);
    const startsAt = gameStart(tx, game);
    if (startsAt !== null && startsAt <= now) throw new DomainError(409, 'This game is starting right now. Join the next one in a moment!');
    const mine = playInGame(tx).get({ gameId: game.id, userId });
    if (mine?.status === 'entered') throw new DomainError(409, 'You have already joined this game.');
    if (mine?.status === 'authorizing')
      throw new DomainError(409, `${ENTRY_IN_PROGRESS} Your picks can change once it is done.`, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    if (mine) {
      // Not paid yet: the new picks replace the old ones and the 15 minutes start again.
      return repickPlay(tx).get({
        id: mine.id,
        influencerIds: plays.influencerIds.mapToDriverValue(influencerIds),
        donateIfWon: plays.donateIfWon.mapToDriverValue(donateIfWon),
        createdAt: now,
      })!;
    }
    return insertPlay(tx).get({ productId: product.id, gameId: game.id, userId, influencerIds, donateIfWon, createdAt: now })!;
  });
  return {
    id: play.id,
    playId: play.id,
    gameId: play.gameId,
    productId: play.productId,
    variantId: variant.id,
    size: sizeLabelOf(product.productType, variantsOf(db, product.id).length, variant),
    influencerIds: play.influencerIds,
    status: play.status,
    donateIfWon: play.donateIfWon,
    createdAt: play.createdAt,
  };
}

export function enteredCount(db: Queryable, gameId: number): number {
  return (
    db
      .select({ n: count() })
      .from(plays)
      .where(and(eq(plays.gameId, gameId), eq(plays.status, 'entered')))
      .get()?.n ?? 0
  );
}

export const ENTRY_IN_PROGRESS = 'Your $1 entry payment is already being processed.';
