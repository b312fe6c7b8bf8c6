import type { payments } from '../../db/schema.ts';
import { centsToDollars } from '../../shared/money.ts';
import { DomainError } from '../errors.ts';
import { confirmPayment } from './engine.ts';
import { asPaymentFailure, type GatewayPayment, STORE_CURRENCY } from './gateway.ts';
import { rowLinkedTo } from './matching.ts';
import type { PaymentDeps } from './purposes.ts';
import { logPaymentEvent } from './states.ts';

/*
 * "Needs attention -> Mark paid" (issue 25, row 3): an admin may settle an unconfirmed charge with
 * a payment they found at Square, but only one that can be this order's money.
 */

export interface MarkPaidInput {
  gatewayPaymentId?: unknown;
  /** Why a payment under another reference pays this order; without it such a payment is refused. */
  overrideReason?: unknown;
  /** The admin's username, for the note and the log. */
  actor?: string;
}

const UNREACHABLE = 'The payment gateway cannot be reached right now. Try again in a minute.';

/**
 * Marks an unconfirmed charge paid with a payment the admin names, only when the gateway shows it
 * COMPLETED for this amount and currency and no other row claims it; and only when its reference is
 * this order's key, unless the admin gives a reason, which is kept on the row and logged.
 * Answers the admin's toast, or null when the row was no longer waiting.
 */
export async function markPaid(deps: PaymentDeps, row: typeof payments.$inferSelect, input: MarkPaidInput): Promise<string | null> {
  const id = typeof input.gatewayPaymentId === 'string' ? input.gatewayPaymentId.trim() : '';
  if (!id || id.length > 100) {
    const message = 'Enter the payment id shown by the payment gateway.';
    throw new DomainError(400, message, { gatewayPaymentId: message });
  }
  const reason = typeof input.overrideReason === 'string' ? input.overrideReason.trim().slice(0, 500) : '';
  let payment: GatewayPayment;
  try {
    payment = await deps.gateway.getPayment(id);
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (failure.code === 'NOT_FOUND') throw new DomainError(409, `The payment gateway has no payment ${id}.`, { gatewayPaymentId: `No payment ${id}.` });
    throw new DomainError(502, UNREACHABLE);
  }
  if (payment.status !== 'COMPLETED' || payment.amountCents !== row.amountCents || payment.currency !== STORE_CURRENCY) {
    const message = `The gateway shows payment ${id} as ${payment.status} for ${centsToDollars(payment.amountCents).toFixed(2)} ${payment.currency}; it does not pay this order.`;
    throw new DomainError(409, message, { gatewayPaymentId: message });
  }
  const linked = rowLinkedTo(deps.db, id, row.id);
  if (linked) {
    const message = `Payment ${id} already pays ${linked.orderId ? `order #${linked.orderId}` : `payment #${linked.id}`}; one payment pays one order.`;
    throw new DomainError(409, message, { gatewayPaymentId: message });
  }
  const ours = payment.referenceId === row.idempotencyKey;
  if (!ours && !reason) {
    const message = `Payment ${id} was made for ${payment.referenceId ? `'${payment.referenceId}'` : 'no reference'}, not for this order ('${row.idempotencyKey}'). To use it anyway, give the reason.`;
    throw new DomainError(409, message, { overrideReason: message }, { code: 'REFERENCE_MISMATCH' });
  }
  const who = input.actor ? `@${input.actor}` : 'an admin';
  const note = ours
    ? `Marked paid by ${who} with payment ${id}${reason ? `: ${reason}` : '.'}`
    : `Marked paid by ${who} with payment ${id} made for ${payment.referenceId ? `'${payment.referenceId}'` : 'no reference'}: ${reason}`;
  // Null: the row moved on meanwhile (another admin, the reconciler).
  if ((await confirmPayment(deps, row.id, payment, { anyReference: !ours, reviewNote: note })) !== 'confirmed') return null;
  logPaymentEvent(ours ? 'marked_paid' : 'marked_paid_override', {
    paymentId: row.id,
    orderId: row.orderId,
    gatewayPaymentId: id,
    reference: payment.referenceId ?? null,
    key: row.idempotencyKey,
    admin: input.actor ?? null,
    reason: reason || null,
  });
  return ours ? `Order #${row.orderId} marked as paid (${id}).` : `Order #${row.orderId} marked as paid (${id}) with your reason: ${reason}`;
}
