import type { Db, Queryable } from '../db/client.ts';
import { type Auction, teamStatuses } from '../db/schema.ts';
import { auctionSettling, withdrawAuctionIn } from '../domain/auctions/admin.ts';
import { currentAuctionOf, LIVE_STATUSES, openAuctionOf } from '../domain/auctions/auction-rows.ts';
import { findProduct, productLabel } from '../domain/catalog/catalog.ts';
import { type Removal, retireProductIn } from '../domain/catalog/catalog-admin.ts';
import type { ImageStore } from '../domain/catalog/images.ts';
import type { Clock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import { cancelGameIn, gamesOfProduct, voidGameHolds } from '../domain/games/cancel.ts';
import type { PaymentGateway } from '../domain/payments/gateway.ts';
import { cancelOpenTeam, teamsOfProduct } from '../domain/promotions/teams-cancel.ts';
import { voidReleasedHolds } from '../domain/promotions/teams-expiry.ts';

/*
 * Deleting (or archiving) a product ends what is open on it first (issue 34, item 4), in the one
 * transaction that removes it: open teams cancelled (holds voided, members told, units back),
 * an auction not yet at its end withdrawn (bidders told, nobody charged), waiting games canceled
 * by the games' own rule (holds voided, players told). What cannot be ended without touching
 * money in flight refuses the whole removal with a 409 naming it, and nothing changes: a team
 * whose hold is being asked for or whose holds are being captured, an auction past its end or
 * owed its price, a game being played. The gateway's voids run after the commit.
 * docs/decisions.md, "Ending what is open before a delete (issue 34)".
 */

export interface ProductRemovalDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
  images: ImageStore;
}

const GAME_WITHDRAWN = {
  reason: 'The product was withdrawn from sale.',
  message: (brand: string) => `The shop withdrew ${brand} from sale, so its game was canceled. Your $1 hold was released; nothing was charged.`,
  only: 'waiting' as const,
};

function auctionRefusal(auction: Auction): string {
  if (auction.status === 'awaiting_payment' || auction.status === 'second_chance') {
    return `This product has an auction waiting for its winner's payment (auction #${auction.id}). It can be deleted once that auction is paid or over.`;
  }
  return `This product has an auction closing: its winner is being decided and charged (auction #${auction.id}). Try again in a few minutes.`;
}

/** Why the product cannot leave now, in words that name what is open; null when all of it can be ended. */
export function removalRefusal(db: Queryable, productId: number, now: number): string | null {
  const capturing = teamsOfProduct(db, productId, ['capturing'])[0];
  if (capturing) return `This product has a team buy being paid for (team ${capturing.code}). Try again in a few minutes.`;
  const holding = teamsOfProduct(db, productId, ['starting', 'joining'])[0];
  if (holding) return `This product has a team buy whose card hold is being confirmed (team ${holding.code}). Try again in a few minutes.`;
  const auction = currentAuctionOf(db, productId);
  if (auction && LIVE_STATUSES.includes(auction.status) && auctionSettling(auction, now)) return auctionRefusal(auction);
  const playing = gamesOfProduct(db, productId, ['active'])[0];
  if (playing) return `This product has a game being played (game #${playing.id}). It can be deleted once the game ends.`;
  return null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What removing the product would end or why it cannot be removed now, in the confirmation page's words. */
export function removalPreview(db: Queryable, productId: number, now: number): { refusal: string | null; ends: string[] } {
  const refusal = removalRefusal(db, productId, now);
  if (refusal) return { refusal, ends: [] };
  const teams = teamsOfProduct(db, productId, ['open']).length;
  const auction = openAuctionOf(db, productId);
  const games = gamesOfProduct(db, productId, ['waiting']).length;
  const ends = [
    ...(teams ? [`${plural(teams, 'open team buy')} cancelled: holds released, members told.`] : []),
    ...(auction ? [`Its auction withdrawn${auction.bidCount ? ` (${plural(auction.bidCount, 'bid')}): bidders told, nobody charged.` : '.'}`] : []),
    ...(games ? [`${plural(games, 'waiting game')} canceled: $1 holds released, players told.`] : []),
  ];
  return { refusal: null, ends };
}

/** DELETE /api/products/{id} and the admin's delete form: ends what is open, then deletes or archives. */
export async function removeProduct(deps: ProductRemovalDeps, productId: number): Promise<Removal> {
  const { db, clock } = deps;
  const done = db.transaction((tx) => {
    const product = findProduct(tx, productId);
    if (!product) throw new DomainError(404, 'Product not found');
    const refusal = removalRefusal(tx, productId, clock.now());
    if (refusal) throw new DomainError(409, refusal, undefined, { code: 'PRODUCT_HAS_OPEN_SALE' });
    const voiding = teamsOfProduct(tx, productId, ['open']).flatMap((team) => cancelOpenTeam(tx, clock, team, true) ?? []);
    const auction = openAuctionOf(tx, productId);
    if (auction) withdrawAuctionIn(tx, clock, auction, productLabel(product));
    const games = gamesOfProduct(tx, productId, ['waiting']).filter((game) => cancelGameIn(tx, clock, game.id, GAME_WITHDRAWN));
    // Team and auction rows are the members' and bidders' records: never cascaded away with the product.
    const keptElsewhere = teamsOfProduct(tx, productId, [...teamStatuses]).length > 0 || currentAuctionOf(tx, productId) !== undefined;
    return { removal: retireProductIn(tx, clock, productId, keptElsewhere), voiding, gameIds: games.map((game) => game.id) };
  });
  const { imageUrl, ...removal } = done.removal;
  if (imageUrl !== undefined) deps.images.remove(imageUrl);
  await voidReleasedHolds(deps, done.voiding);
  for (const gameId of done.gameIds) await voidGameHolds(deps, gameId);
  return removal;
}
