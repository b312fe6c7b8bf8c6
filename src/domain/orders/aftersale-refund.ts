import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orderRefunds, orders, payments } from '../../db/schema.ts';
import { formatCents } from '../../shared/pricing.ts';
import { committedRefundCents } from './aftersale-refund-states.ts';
import { guaranteeEndsAt } from './aftersale.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { createRefund } from '../payments/engine.ts';
import { sendRefund } from '../payments/refunds.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { gatewayKey } from '../payments/keys.ts';

/*
 * POST /api/admin/orders/{id}/refund: an admin gives back all or part of a delivered or shipped
 * card order within the 30-day guarantee (DESIGN section 5: claim -> call -> confirm).
 *
 * Claim: one transaction checks the order and what is still refundable (the charge less every
 * refund sent or done) and writes the refund row as 'refunding' with its own key
 * ('{prefix}-refund-{order}-{n}') and its reason; two refunds at once cannot both pass the check,
 * as SQLite runs one writer at a time. Call: the gateway, after the commit. Confirm: the row is
 * refunded and the shopper told (aftersale-refund-states.ts). A lost answer leaves the row
 * 'refunding' under a lease: the reconciler sends it again with the same key, which refunds once.
 *
 * Cash on delivery is refused: the money never went through the gateway, and a cash refund
 * recorded here could not be proved handed over; the admin gives cash back in person.
 * A paid order not yet delivered or shipped is canceled instead (Cancel Order & Refund).
 */

export interface RefundOrderDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

export interface RefundRequest {
  amountCents?: number;
  reason: string;
  adminId?: number | null;
  /** The admin form's key, new each time the form is shown: the same form sent twice answers with the first refund. */
  requestKey?: string;
}

export interface RefundResult {
  status: 200 | 202;
  message: string;
  refund: { id: number; orderId: number; amountCents: number; reason: string; state: 'refunded' | 'refunding' };
  refundedCents: number;
}

type Claim = { paymentRowId: number; recordId: number; amountCents: number; reason: string; replay: boolean };

function claim(deps: RefundOrderDeps, orderId: number, request: RefundRequest): Claim {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    if (request.requestKey) {
      const earlier = tx
        .select()
        .from(orderRefunds)
        .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.requestKey, request.requestKey)))
        .get();
      if (earlier) {
        // The same form sent again with other words (back, edit, send): not a second refund in disguise.
        const changed = (request.amountCents !== undefined && request.amountCents !== earlier.amountCents) || request.reason !== earlier.reason;
        if (changed) {
          throw new DomainError(
            409,
            `This refund form was already sent: it refunded ${formatCents(earlier.amountCents)} of order #${orderId}. Open the order again for another refund.`,
          );
        }
        return { paymentRowId: earlier.paymentId, recordId: earlier.id, amountCents: earlier.amountCents, reason: earlier.reason, replay: true };
      }
    }
    const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
    if (!order) throw new DomainError(404, 'Order not found.');
    if (order.paymentMethod === 'cod')
      throw new DomainError(409, `Order #${orderId} was paid in cash on delivery: give the money back in cash; nothing goes through the card processor.`);
    if (order.status === 'processing') throw new DomainError(409, `Order #${orderId} has not been delivered or shipped yet: cancel it to refund it in full.`);
    if (order.status !== 'completed' && order.status !== 'shipped')
      throw new DomainError(409, `Order #${orderId} is ${order.status}: only delivered or shipped orders can be refunded.`);
    const ends = guaranteeEndsAt(order);
    if (ends !== null && clock.now() > ends)
      throw new DomainError(409, `Order #${orderId} is past the 30-day money-back guarantee (it ended ${new Date(ends).toISOString().slice(0, 10)}).`);
    const charge = tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'order_charge'), inArray(payments.status, ['captured', 'refunded'])))
      .get();
    if (!charge) throw new DomainError(409, `Order #${orderId} has no card payment to refund.`);
    if (charge.status === 'refunded') throw new DomainError(409, `Order #${orderId} has already been refunded in full.`);
    const left = charge.amountCents - committedRefundCents(tx, orderId);
    if (left <= 0) throw new DomainError(409, `Order #${orderId} has already been refunded in full.`);
    const amountCents = request.amountCents ?? left;
    if (amountCents > left) {
      const message = `At most ${formatCents(left)} of order #${orderId} can still be refunded.`;
      throw new DomainError(409, message, { amountCents: message }, { refundableCents: left });
    }
    const n = (tx.select({ n: count() }).from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).get()?.n ?? 0) + 1;
    const now = clock.now();
    const row = createRefund(tx, clock, {
      userId: order.userId,
      amountCents,
      orderId,
      gateway: charge.gateway,
      idempotencyKey: gatewayKey(db, 'refund', orderId, n),
    });
    const record = tx
      .insert(orderRefunds)
      .values({
        orderId,
        paymentId: row.id,
        amountCents,
        reason: request.reason,
        adminId: request.adminId ?? null,
        requestKey: request.requestKey ?? null,
        createdAt: now,
      })
      .returning()
      .get();
    return { paymentRowId: row.id, recordId: record.id, amountCents, reason: request.reason, replay: false };
  });
}

export async function refundOrder(deps: RefundOrderDeps, orderId: number, request: RefundRequest): Promise<RefundResult> {
  if (request.amountCents !== undefined && !(Number.isSafeInteger(request.amountCents) && request.amountCents >= 1)) {
    const message = 'Enter an amount of at least $0.01, or leave it empty to refund the rest.';
    throw new DomainError(400, message, { amountCents: message });
  }
  const claimed = claim(deps, orderId, request);
  let row = deps.db.select().from(payments).where(eq(payments.id, claimed.paymentRowId)).get()!;
  if (!claimed.replay && row.status === 'refunding') {
    const sent = await sendRefund(deps, row);
    if (sent.outcome === 'refused') throw new DomainError(502, `The card processor refused the refund: ${sent.detail || sent.code}. Nothing was refunded.`);
    row = deps.db.select().from(payments).where(eq(payments.id, claimed.paymentRowId)).get()!;
  }
  if (row.status === 'failed') throw new DomainError(502, `The card processor refused the refund: ${row.errorDetail ?? row.errorCode}. Nothing was refunded.`);
  const done = row.status === 'refunded';
  const refund = {
    id: claimed.recordId,
    orderId,
    amountCents: claimed.amountCents,
    reason: claimed.reason,
    state: done ? ('refunded' as const) : ('refunding' as const),
  };
  const refundedCents = committedRefundCents(deps.db, orderId);
  return done
    ? { status: 200, message: `Refunded ${formatCents(claimed.amountCents)} of order #${orderId}.`, refund, refundedCents }
    : {
        status: 202,
        message: `The refund of ${formatCents(claimed.amountCents)} for order #${orderId} is sent; the card processor has not confirmed it yet. It is retried automatically with the same key, so the card is refunded once.`,
        refund,
        refundedCents,
      };
}
