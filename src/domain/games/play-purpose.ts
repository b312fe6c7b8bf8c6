import { and, eq, inArray, sql } from 'drizzle-orm';
import { preparedOnce } from '../../db/prepared.ts';
import { games, plays, products } from '../../db/schema.ts';
import { findProduct, productLabel } from '../catalog/catalog.ts';
import { notify } from '../accounts/notifications.ts';
import type { Purpose } from '../payments/purposes.ts';
import { announceReadiness } from './entry-payment.ts';
import { type GameDeps, isFull, moveToGameWithRoom } from './entry.ts';
import { updateCardUrl } from './entry-answer.ts';
import { markLeftoverHolds } from './lifecycle.ts';
import { gameStart } from './schedule.ts';

/*
 * What a game entry's $1 hold means (payments kind 'play_authorization'), registered with the
 * money engine by src/flows/payment-purposes.ts. Confirmed: the play is entered while its game
 * still takes it (else the play is void and the engine releases the hold). Refused: the play is
 * void and the player told. Captures and voids are the game's decisions (lifecycle.ts, cancel.ts):
 * nothing more follows from them here.
 */

/* Every confirmed $1 hold runs these: built once (db/prepared.ts). */
const playById = preparedOnce((db) =>
  db
    .select()
    .from(plays)
    .where(eq(plays.id, sql.placeholder('id')))
    .prepare(),
);
const gameById = preparedOnce((db) =>
  db
    .select()
    .from(games)
    .where(eq(games.id, sql.placeholder('id')))
    .prepare(),
);
const voidOpenPlay = preparedOnce((db) =>
  db
    .update(plays)
    .set({ status: 'void' })
    .where(and(eq(plays.id, sql.placeholder('id')), inArray(plays.status, ['pending', 'authorizing'])))
    .prepare(),
);
const enterPlay = preparedOnce((db) =>
  db
    .update(plays)
    .set({ status: 'entered', enteredAt: sql`${sql.placeholder('now')}`, gameId: sql`${sql.placeholder('gameId')}` })
    .where(eq(plays.id, sql.placeholder('id')))
    .prepare(),
);

export const playPurpose: Purpose = {
  kind: 'play_authorization',
  onConfirmed(tx, deps, row) {
    const { clock } = deps;
    const now = clock.now();
    if (!row.playId) return { release: true };
    const play = playById(tx).get({ id: row.playId });
    let game = play ? gameById(tx).get({ id: play.gameId }) : undefined;
    // Another entry took the last place while this hold was asked for: the next game takes this one.
    // The reconciler and the admin's actions are given the app's deps, which carry the metrics source.
    if (play?.status === 'authorizing' && game?.status === 'waiting' && isFull(tx, game))
      game = moveToGameWithRoom(deps as GameDeps, tx, play, now) ?? undefined;
    const starts = game ? gameStart(tx, game) : null;
    const open = play?.status === 'authorizing' && game?.status === 'waiting' && !(starts !== null && starts <= now);
    if (!open || !play || !game) {
      if (play) voidOpenPlay(tx).run({ id: play.id });
      return { release: true };
    }
    enterPlay(tx).run({ id: play.id, now, gameId: game.id });
    const product = findProduct(tx, play.productId)!;
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
    return undefined;
  },
  /** The hold was refused: no entry, the player is told. */
  onRefused(tx, { clock }, row) {
    if (!row.playId) return undefined;
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
    return undefined;
  },
  describe(db, row) {
    const gameId = row.playId ? db.select({ gameId: plays.gameId }).from(plays).where(eq(plays.id, row.playId)).get()?.gameId : undefined;
    const what = gameId ? `$1 entry hold (game #${gameId})` : '$1 entry hold';
    if (row.status === 'capture_failed') return { what, todo: 'Retry the capture once Square answers, or mark it as dealt with.' };
    if (row.status === 'void_failed') return { what, todo: 'Retry the release, or release it in Square and mark it as dealt with.' };
    return { what, todo: 'Check it with Square; mark it failed only when Square shows no hold.' };
  },
  sweep: (deps) => markLeftoverHolds(deps as GameDeps),
};
