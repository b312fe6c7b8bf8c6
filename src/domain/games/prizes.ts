import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import { productLabel } from '../catalog/catalog.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { cartItems, games, orderItems, orders, plays, products, type Game } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { CHECKOUT_IN_PROGRESS, DomainError } from '../errors.ts';
import { markSold, owners, release } from '../inventory/stock.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { notify } from '../accounts/notifications.ts';
import { PRIZE_KEEP_MS, PRIZE_REMINDER_BEFORE_MS } from './schedule.ts';
import { gameSizes } from './game-rows.ts';
import { withSize } from '../../shared/size-label.ts';

/*
 * A won prize's life (games.prizeOutcome): settlement puts it in the winner's cart ('cart');
 * removing it from the cart returns it to 'unclaimed' (never destroyed); Claim Prize puts it
 * back; a checkout moves it to 'buying' then 'bought'; Donate moves 'unclaimed' or 'cart' to
 * 'donated'. Each move is a conditional UPDATE, so two tabs can never both buy and donate it.
 * A prize nobody buys or donates is kept PRIZE_KEEP_MS after the game ended (a reminder a day
 * before), then 'expired': its reserved unit goes back to stock.
 */

export const PRIZE_PRICE_CENTS = 100;

export type PrizeState = 'to_claim' | 'in_cart' | 'paying' | 'bought' | 'delivered' | 'donated' | 'returned';

export const prizeStateLabels: Record<PrizeState, string> = {
  to_claim: 'To claim',
  in_cart: 'In your cart',
  paying: 'Payment in progress',
  bought: 'Bought',
  delivered: 'Delivered',
  donated: 'Donated',
  returned: 'Returned to stock',
};

export interface PrizeStatus {
  state: PrizeState;
  label: string;
  /** The order that bought it, when one did. */
  orderId: number | null;
  /** Until when an unclaimed or in-cart prize is kept. */
  keptUntil: number | null;
}

/** The prize of a settled game with a winner, as My Games and the audit page show it; null otherwise. */
export function prizeStatusOf(db: Queryable, game: Pick<Game, 'id' | 'prizeOutcome' | 'settledAt' | 'endTime'>): PrizeStatus | null {
  if (!game.prizeOutcome) return null;
  const order =
    game.prizeOutcome === 'bought' || game.prizeOutcome === 'buying'
      ? db
          .select({ id: orders.id, status: orders.status })
          .from(orderItems)
          .innerJoin(orders, eq(orderItems.orderId, orders.id))
          .where(and(eq(orderItems.gameId, game.id), eq(orderItems.purchaseType, 'play'), inArray(orders.status, ['pending', 'processing', 'completed'])))
          .get()
      : undefined;
  const state: PrizeState = {
    unclaimed: 'to_claim' as const,
    cart: 'in_cart' as const,
    buying: 'paying' as const,
    bought: order?.status === 'completed' ? ('delivered' as const) : ('bought' as const),
    donated: 'donated' as const,
    expired: 'returned' as const,
  }[game.prizeOutcome];
  const ended = game.settledAt ?? game.endTime ?? 0;
  return {
    state,
    label: prizeStateLabels[state],
    orderId: order?.id ?? null,
    keptUntil: state === 'to_claim' || state === 'in_cart' ? ended + PRIZE_KEEP_MS : null,
  };
}

function winnersGame(db: Queryable, userId: number, gameId: number): Game {
  const game = Number.isSafeInteger(gameId) ? db.select().from(games).where(eq(games.id, gameId)).get() : undefined;
  const winner = game?.winnerPlayId ? db.select({ userId: plays.userId }).from(plays).where(eq(plays.id, game.winnerPlayId)).get() : undefined;
  // Someone else's game answers like a missing one.
  if (!game || !winner || winner.userId !== userId) throw new DomainError(404, 'No prize of yours was found for this game.');
  return game;
}

function refuseFor(outcome: Game['prizeOutcome']): never {
  if (outcome === 'buying') throw new DomainError(409, CHECKOUT_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
  if (outcome === 'donated') throw new DomainError(409, 'This prize was already donated.');
  if (outcome === 'expired') throw new DomainError(409, 'This prize was not claimed in time and went back to stock.');
  throw new DomainError(409, 'This prize was already bought.');
}

function putInCart(tx: Queryable, clock: Clock, userId: number, game: Game): void {
  const line = tx
    .select({ id: cartItems.id })
    .from(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.gameId, game.id), eq(cartItems.type, 'play')))
    .get();
  if (!line)
    tx.insert(cartItems)
      .values({
        userId,
        productId: game.productId,
        variantId: game.variantId,
        quantity: 1,
        priceCents: PRIZE_PRICE_CENTS,
        type: 'play',
        gameId: game.id,
        addedAt: clock.now(),
      })
      .run();
}

/** POST /api/games/{id}/claim: the prize goes (back) into the winner's cart at $1. Claiming twice is harmless. */
export function claimPrize(deps: { db: Db; clock: Clock }, userId: number, gameId: number): void {
  const game = winnersGame(deps.db, userId, gameId);
  deps.db.transaction((tx) => {
    const moved = tx
      .update(games)
      .set({ prizeOutcome: 'cart' })
      .where(and(eq(games.id, game.id), inArray(games.prizeOutcome, ['unclaimed', 'cart'])))
      .returning({ id: games.id })
      .get();
    if (!moved) refuseFor(tx.select({ o: games.prizeOutcome }).from(games).where(eq(games.id, game.id)).get()?.o ?? null);
    // An older store may have lost the cart line of a prize still marked 'cart': it comes back too.
    putInCart(tx, deps.clock, userId, game);
  });
}

/** Removing a prize's cart line: the prize waits on My Games again ('unclaimed'). */
export function returnPrizeFromCart(tx: Queryable, userId: number, gameId: number): void {
  const moved = tx
    .update(games)
    .set({ prizeOutcome: 'unclaimed' })
    .where(and(eq(games.id, gameId), eq(games.prizeOutcome, 'cart')))
    .returning({ id: games.id })
    .get();
  if (!moved) {
    const outcome = tx.select({ o: games.prizeOutcome }).from(games).where(eq(games.id, gameId)).get()?.o ?? null;
    if (outcome === 'buying') refuseFor(outcome);
  }
  tx.delete(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.gameId, gameId), eq(cartItems.type, 'play')))
    .run();
}

/** POST /api/games/{id}/donate: the winner gives the prize to charity, from My Games or from the cart. */
export function donatePrize(deps: { db: Db; clock: Clock }, userId: number, gameId: number): void {
  const game = winnersGame(deps.db, userId, gameId);
  deps.db.transaction((tx) => {
    const moved = tx
      .update(games)
      .set({ prizeOutcome: 'donated', prizeDonatedAt: deps.clock.now() })
      .where(and(eq(games.id, game.id), inArray(games.prizeOutcome, ['unclaimed', 'cart'])))
      .returning({ id: games.id })
      .get();
    if (!moved) refuseFor(tx.select({ o: games.prizeOutcome }).from(games).where(eq(games.id, game.id)).get()?.o ?? null);
    // Given to charity: the unit leaves the store as if sold.
    markSold(tx, owners.game(game.id), deps.clock.now());
    tx.delete(cartItems)
      .where(and(eq(cartItems.userId, userId), eq(cartItems.gameId, game.id), eq(cartItems.type, 'play')))
      .run();
  });
}

function winnerOf(tx: Queryable, game: Game): number | null {
  return game.winnerPlayId ? (tx.select({ userId: plays.userId }).from(plays).where(eq(plays.id, game.winnerPlayId)).get()?.userId ?? null) : null;
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/**
 * The prize job: a reminder a day before an unclaimed (or in-cart) prize runs out, then at
 * PRIZE_KEEP_MS it goes back to stock. Each step is claimed with a conditional UPDATE, so two
 * processes tell and return once; a prize being paid for ('buying') is left alone.
 */
export function expireUnclaimedPrizes(deps: { db: Db; clock: Clock }, now: number): { reminded: number; returned: number } {
  const { db, clock } = deps;
  let reminded = 0;
  let returned = 0;
  const open = db
    .select()
    .from(games)
    .where(
      and(
        eq(games.status, 'completed'),
        inArray(games.prizeOutcome, ['unclaimed', 'cart']),
        lte(games.settledAt, now - PRIZE_KEEP_MS + PRIZE_REMINDER_BEFORE_MS),
      ),
    )
    .all();
  // The size the player won, for a product sold in several: one read for all the games.
  const sizes = gameSizes(db, open);
  for (const game of open) {
    const deadline = (game.settledAt ?? 0) + PRIZE_KEEP_MS;
    const product = db.select().from(products).where(eq(products.id, game.productId)).get();
    const name = product ? withSize(productLabel(product), sizes.get(game.id)) : 'your prize';
    db.transaction((tx) => {
      const userId = winnerOf(tx, game);
      if (userId === null) return;
      if (now >= deadline) {
        const expired = tx
          .update(games)
          .set({ prizeOutcome: 'expired' })
          .where(and(eq(games.id, game.id), inArray(games.prizeOutcome, ['unclaimed', 'cart'])))
          .returning({ id: games.id })
          .get();
        if (!expired) return;
        tx.delete(cartItems)
          .where(and(eq(cartItems.gameId, game.id), eq(cartItems.type, 'play')))
          .run();
        release(tx, owners.game(game.id), now);
        const message = `Your prize from the game for ${name} was not claimed within 7 days, so it went back to stock. You can still buy it or play for it again.`;
        notify(tx, clock, userId, {
          type: 'game_won',
          eventKey: `game:${game.id}:prize-returned`,
          title: 'Prize returned to stock',
          message,
          actionUrl: `/product/${game.productId}`,
          actionText: 'See Product',
          productId: game.productId,
          gameId: game.id,
        });
        queueEmail(tx, clock, {
          userId,
          kind: 'prize_returned',
          eventKey: `game:${game.id}:prize-returned`,
          subject: 'Your prize went back to stock',
          body: composeEmail({
            heading: 'Your prize went back to stock',
            paragraphs: [message],
            action: { label: 'See the product', path: `/product/${game.productId}` },
          }),
        });
        returned++;
        return;
      }
      const marked = tx
        .update(games)
        .set({ prizeRemindedAt: now })
        .where(and(eq(games.id, game.id), isNull(games.prizeRemindedAt), inArray(games.prizeOutcome, ['unclaimed', 'cart'])))
        .returning({ id: games.id })
        .get();
      if (!marked) return;
      const message = `Your prize ${name} is kept for you until ${dateFormat.format(deadline)}. Buy it for $1 plus tax with free delivery within 2-3 hours, or donate it, before then.`;
      notify(tx, clock, userId, {
        type: 'game_won',
        eventKey: `game:${game.id}:prize-reminder`,
        title: 'Claim your prize',
        message,
        actionUrl: '/scoreboard?tab=my-games',
        actionText: 'Claim Prize',
        productId: game.productId,
        gameId: game.id,
      });
      queueEmail(tx, clock, {
        userId,
        kind: 'prize_reminder',
        eventKey: `game:${game.id}:prize-reminder`,
        subject: 'Your prize is waiting: one day left',
        body: composeEmail({
          heading: 'Your prize is waiting',
          paragraphs: [message],
          action: { label: 'Claim your prize', path: '/scoreboard?tab=my-games' },
          footnote: 'You get this message because e-mail notifications are on in your profile.',
        }),
      });
      reminded++;
    });
  }
  return { reminded, returned };
}
