import { eq } from 'drizzle-orm';
import { payments, plays } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import type { PaymentFailure } from '../payments/gateway.ts';
import type { GameDeps } from './entry.ts';

/* What POST /api/payments answers once an entry's hold has ended (entry-payment.ts), and the way on after a decline. */

export const ENTRY_DECLINED = 'Your card was declined, so you were not entered and nothing was held. Update your payment card, then join again.';

/** The profile's card tab, coming back to the product's play page once the card is saved. */
export function updateCardUrl(productId: number): string {
  return `/profile?tab=payment&next=${encodeURIComponent(`/play/${productId}`)}`;
}

/** What the player is told once the entry's hold has ended, whoever ended it. */
export function entryAnswer(deps: GameDeps, playId: number, paymentRowId: number, failure: PaymentFailure | null) {
  const { db } = deps;
  const play = db.select().from(plays).where(eq(plays.id, playId)).get()!;
  const row = db.select().from(payments).where(eq(payments.id, paymentRowId)).get()!;
  if (play.status === 'entered' && row.status === 'authorized') {
    return { id: play.id, playId: play.id, paymentId: row.id, status: 'entered', gameId: play.gameId, productId: play.productId, amount: 1 };
  }
  if (row.status === 'authorizing') {
    throw new DomainError(
      502,
      'We could not confirm your $1 hold with the card processor yet. You will not be charged twice; we will notify you as soon as your entry is confirmed.',
      undefined,
      { code: 'PAYMENT_UNCONFIRMED' },
    );
  }
  if (row.status === 'failed') {
    const declined = failure?.declined ?? row.errorCode === 'DECLINED';
    const message = declined ? ENTRY_DECLINED : 'The payment could not be processed. Please try again.';
    // The way on after a decline: the card tab, and back to this game's picks after saving.
    const action = declined ? { actionUrl: updateCardUrl(play.productId), actionText: 'Update payment card' } : {};
    throw new DomainError(declined ? 402 : 502, message, undefined, { code: failure?.code ?? row.errorCode ?? 'GATEWAY_ERROR', declined, ...action });
  }
  throw new DomainError(409, 'This game has already started. Your $1 hold was released; join the next one!');
}
