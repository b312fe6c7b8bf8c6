/*
 * The payment gateway (DESIGN section 5): save a card on file, authorize, capture, void,
 * charge, refund. Two implementations: `square` (the official SDK) and `test` (built in, the
 * default, behaving like Square's sandbox). Amounts are integer cents here; implementations
 * convert. Every call that moves money carries an idempotency key made by `gatewayKey()`
 * (keys.ts: the installation prefix and our own row id), so a retried call never charges twice.
 */

/** The store's only currency: every payment it confirms must be in it. */
export const STORE_CURRENCY = 'USD';

/**
 * A gateway call that did not succeed: a decline (card problem), a refusal (the request was
 * not processed), or an unknown outcome (a timeout, a 5xx, a lost connection: the gateway may
 * or may not have moved the money). An uncertain failure is never treated as a failure: the
 * caller keeps its in-between state and asks the gateway for the truth.
 */
export class PaymentFailure extends Error {
  constructor(
    /** Square's error code, e.g. GENERIC_DECLINE, CVV_FAILURE, INSUFFICIENT_FUNDS, CARD_EXPIRED, INVALID_CARD, GATEWAY_ERROR. */
    readonly code: string,
    /** The gateway's own words, for logs and for the shopper where helpful. */
    readonly detail: string,
    /** True for card declines (the shopper can fix them), false for gateway or request errors. */
    readonly declined: boolean,
    /** True when the gateway may have processed the request anyway. */
    readonly uncertain = false,
  ) {
    super(detail);
  }
}

/** Any error from a gateway call as a PaymentFailure; an unexpected error is an unknown outcome. */
export function asPaymentFailure(error: unknown): PaymentFailure {
  if (error instanceof PaymentFailure) return error;
  return new PaymentFailure('GATEWAY_ERROR', error instanceof Error ? error.message : String(error), false, true);
}

export interface SavedCard {
  /** The gateway's customer id (Square Customers API). */
  customerId: string;
  /** The card-on-file id, usable as a payment source (Square: 'ccof:...'). */
  cardId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The same for every saving of one card number (Square's card fingerprint), when the gateway gives one. */
  fingerprint?: string;
}

export type GatewayPaymentStatus = 'APPROVED' | 'COMPLETED' | 'CANCELED' | 'FAILED';

export interface GatewayPayment {
  id: string;
  /** APPROVED: authorized, awaiting capture. COMPLETED: captured/charged. CANCELED: voided. FAILED: declined. */
  status: GatewayPaymentStatus;
  amountCents: number;
  /** ISO 4217, as the gateway reports it ('USD'). */
  currency: string;
  /** Our idempotency key, sent as the payment's reference id, so the payment can be found again. */
  referenceId?: string;
  /** The card it was paid with, for receipts ('VISA', '1111'), when the gateway says. */
  card?: { brand: string; last4: string };
}

export interface GatewayRefund {
  id: string;
  status: 'PENDING' | 'COMPLETED' | 'REJECTED' | 'FAILED';
  amountCents: number;
}

export interface PaymentSource {
  /** A one-time card token from the card form ('cnon:...'), or a card-on-file id. */
  sourceId: string;
  /** Required by Square when `sourceId` is a card on file. */
  customerId?: string | null;
}

export interface MoneyRequest extends PaymentSource {
  amountCents: number;
  /** Also sent as the payment's reference id (at most 40 characters). */
  idempotencyKey: string;
  note?: string;
}

export interface PaymentGateway {
  readonly name: 'test' | 'square';
  /** Stores the card behind a one-time token as a card on file; creates the customer when missing. */
  saveCard(input: {
    sourceId: string;
    customerId?: string | null;
    idempotencyKey: string;
    customer: { referenceId: string; email?: string | null; name?: string | null };
  }): Promise<SavedCard>;
  /** Puts a hold on the card without charging it (a $1 play). */
  authorize(input: MoneyRequest): Promise<GatewayPayment>;
  /** Charges a held payment. */
  capture(paymentId: string): Promise<GatewayPayment>;
  /** Releases a held payment; nothing is charged. */
  void(paymentId: string): Promise<GatewayPayment>;
  /** Charges at once (buy now). */
  charge(input: MoneyRequest): Promise<GatewayPayment>;
  /** Refunds a charge; the same key and body again returns the first refund. */
  refund(input: { paymentId: string; amountCents: number; idempotencyKey: string; reason?: string }): Promise<GatewayRefund>;
  /** The payment as the gateway sees it now; PaymentFailure NOT_FOUND when it has none. */
  getPayment(paymentId: string): Promise<GatewayPayment>;
  /**
   * The payments created since `since` (epoch ms) whose reference id is one of `referenceIds`,
   * by reference id: how an answer lost on the way is recovered (a charge or hold that the
   * gateway made although we never heard back). Declined payments are included as FAILED.
   */
  findPayments(referenceIds: string[], since: number): Promise<Map<string, GatewayPayment>>;
}

/**
 * The payment the gateway holds under our key (its reference id), or undefined when it has none
 * or cannot say right now: how a request learns what happened after an unknown answer.
 */
export async function paymentUnderKey(gateway: PaymentGateway, key: string, since: number): Promise<GatewayPayment | undefined> {
  try {
    return (await gateway.findPayments([key], since)).get(key);
  } catch {
    return undefined;
  }
}
