import { and, desc, eq } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { withCardAttempt } from '../payments/card-attempts.ts';
import { paymentUnderKey } from '../payments/gateway.ts';
import { claimPayment, settleFromGateway } from '../payments/engine.ts';
import { answerFor, chargeOrder, type OrderDeps, paymentSourceFor } from './orders.ts';

/*
 * A purchase cut off by a crash (docs/decisions.md "Idempotency keys across guests and
 * crashes"): the request placed its order, then its process died before answering. The retry of
 * its Idempotency-Key, on any process, finishes that order instead of placing a second one:
 * the gateway is asked what it holds under the charge's key; when it holds nothing, the charge
 * never left (or is still on its way) and is sent again under the same key, which Square takes
 * at most once. The answer is the one the first try would have given.
 */

export interface Retry {
  userId: number;
  /** The retry's card token: the same as the first try's (the same request body). */
  paymentToken: string | undefined;
  clientAddress: string;
}

/** Resolves to the order id once paid; throws the first try's DomainError otherwise (declined, not confirmed yet). */
export async function finishOrderAttempt(deps: OrderDeps, orderId: number, retry: Retry): Promise<number> {
  const { db, gateway } = deps;
  const row = db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'order_charge')))
    .orderBy(desc(payments.id))
    .get();
  if (row?.status !== 'charging') return answerFor(db, orderId, null);
  const found = await paymentUnderKey(gateway, row.idempotencyKey, row.createdAt);
  if (found) {
    await settleFromGateway(deps, row, found);
    return answerFor(db, orderId, null);
  }
  // The dead request's lease on the row is this request's now: the reconciler must not call the
  // charge "never taken" while it is being sent again.
  if (!claimPayment(db, deps, row)) return answerFor(db, orderId, null);
  const source = paymentSourceFor(db, retry.userId, retry.paymentToken);
  return withCardAttempt(deps, { userId: retry.userId, address: retry.clientAddress }, (gate) =>
    chargeOrder(
      deps,
      { orderId, paymentRowId: row.id, key: row.idempotencyKey, createdAt: row.createdAt },
      { payment: { method: 'square', ...source }, totals: { totalCents: row.amountCents } },
      gate,
    ),
  );
}
