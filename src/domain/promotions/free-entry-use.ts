import { and, eq } from 'drizzle-orm';
import { plays, products } from '../../db/schema.ts';
import { notify } from '../accounts/notifications.ts';
import { requireCompleteProfile } from '../accounts/profile.ts';
import { productLabel } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import { announceReadiness, gameTakingPlay, waitingPlayOf } from '../games/entry-payment.ts';
import { ENTRY_IN_PROGRESS, type GameDeps, requirePrizeCanGo } from '../games/entry.ts';
import { requireMayPlay } from '../accounts/responsible-play.ts';
import type { EntryPaymentBody } from '../../shared/schemas/games.ts';
import { claimFreeEntry } from '../games/free-entries.ts';

/*
 * POST /api/payments { productId, type: 'play', useFreeEntry: true }: the player's pending play
 * enters its game on a free entry instead of a $1 hold. One IMMEDIATE transaction does what the
 * hold's claim and confirm do together (responsible play, the game still taking entries, the
 * prize able to go), claims the soonest-expiring entry with a conditional UPDATE and enters the
 * play: no card, no gateway, no in-between state. A refusal rolls all of it back.
 */

export const NO_FREE_ENTRY = 'NO_FREE_ENTRY';
export const NO_FREE_ENTRY_MESSAGE = 'You have no free game entry left. Join for $1 instead.';

export function enterWithFreeEntry(deps: GameDeps, userId: number, input: EntryPaymentBody) {
  const { db, clock } = deps;
  const profile = requireCompleteProfile(db, clock, userId);
  const now = clock.now();
  const outcome = db.transaction((tx) => {
    requireMayPlay(tx, clock, userId, deps.dailyEntryLimit);
    const play = waitingPlayOf(tx, userId, input.productId, now, input.variantId);
    if (!play) throw new DomainError(404, 'There is no play waiting for payment on this product. Pick your 5 influencers first.');
    if (play.status === 'authorizing') throw new DomainError(409, ENTRY_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    const game = gameTakingPlay(deps, tx, play, now);
    if (!game) return null;
    const donateIfWon = input.donateIfWon ?? play.donateIfWon;
    requirePrizeCanGo(profile, donateIfWon);
    const entryId = claimFreeEntry(tx, userId, play.id, now);
    if (entryId === null) throw new DomainError(409, NO_FREE_ENTRY_MESSAGE, undefined, { code: NO_FREE_ENTRY });
    const entered = tx
      .update(plays)
      .set({ status: 'entered', enteredAt: now, gameId: game.id, donateIfWon })
      .where(and(eq(plays.id, play.id), eq(plays.status, 'pending')))
      .returning()
      .get();
    if (!entered) throw new DomainError(409, ENTRY_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    const product = tx.select().from(products).where(eq(products.id, play.productId)).get()!;
    notify(tx, clock, userId, {
      type: 'payment_success',
      eventKey: `free-entry:${entryId}:play:${play.id}`,
      title: 'Free entry used',
      message: `You joined the game for ${productLabel(product)} with a free entry: nothing was held on your card.`,
      actionUrl: '/scoreboard?tab=my-games',
      actionText: 'My Games',
      productId: product.id,
      gameId: game.id,
    });
    announceReadiness(tx, clock, game.id, product, game.requiredParticipants);
    return { play: entered, entryId };
  });
  // The void of a play whose game started meanwhile is kept (as with a hold); the entry was never claimed.
  if (!outcome) throw new DomainError(409, 'This game has already started. Join the next one!');
  const { play, entryId } = outcome;
  return { id: play.id, playId: play.id, status: 'entered', gameId: play.gameId, productId: play.productId, amount: 0, freeEntryId: entryId };
}
