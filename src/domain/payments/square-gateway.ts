/*
 * The `square` gateway (DESIGN section 5) on the official SDK (`square` v46, `SquareClient`).
 *
 * - Cards on file: Customers API (created when the shopper has none) + Cards API.
 * - authorize: CreatePayment with autocomplete false and a 7-day delay (the hold is
 *   released by Square if we never capture); capture = CompletePayment; void = CancelPayment.
 * - charge: CreatePayment with autocomplete true. refund: RefundPayment.
 * - Amounts go over the wire as BigInt cents in USD; every payment names the location.
 * - Errors: the SDK throws `SquareError` carrying Square's `errors: [{category, code,
 *   detail}]`; they become `PaymentFailure(code, detail, declined)` with `declined` true for
 *   PAYMENT_METHOD_ERROR. Timeouts, network errors and bodies without Square errors become
 *   GATEWAY_ERROR. The SDK retries 408/429/5xx itself (`maxRetries`, same body, so the same
 *   idempotency key): a retry never charges twice.
 */
import { createHash } from 'node:crypto';
import { type Square, SquareClient, SquareEnvironment, SquareError, SquareTimeoutError } from 'square';
import {
  type GatewayPayment,
  type GatewayPaymentStatus,
  type GatewayRefund,
  type MoneyRequest,
  type PaymentGateway,
  PaymentFailure,
  type SavedCard,
  STORE_CURRENCY,
} from './gateway.ts';

export interface SquareGatewayOptions {
  accessToken: string;
  locationId: string;
  environment: 'sandbox' | 'production';
  /** Overrides the environment's host, e.g. a fake server in tests. The SDK appends `v2/...` to it. */
  baseUrl?: string;
  /** Retries of 408/429/5xx answers by the SDK. Defaults to 2. */
  maxRetries?: number;
  /** Per-request timeout. Defaults to 30 seconds. */
  timeoutInSeconds?: number;
}

/** How long an authorization holds before Square cancels it by itself (ISO 8601; 7 days is Square's maximum for card-not-present). */
export const AUTHORIZATION_HOLD = 'P7D';
const CURRENCY = STORE_CURRENCY;
/** How far before a search's start the listing of payments begins (findPayments). */
const CLOCK_SKEW_SLACK_MS = 15 * 60_000;

function requireAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new PaymentFailure('INVALID_VALUE', `Amount must be a positive whole number of cents, got ${amountCents}.`, false);
  }
}

function money(amountCents: number): Square.Money {
  return { amount: BigInt(amountCents), currency: CURRENCY };
}

function cents(value: Square.Money | undefined): number {
  const amount = value?.amount;
  if (amount === undefined || amount === null) return 0;
  return Number(amount);
}

/**
 * A second idempotency key for a sub-request (the customer created by `saveCard`), within
 * Square's 45 characters.
 */
function derivedKey(key: string, suffix: string): string {
  const plain = `${key}-${suffix}`;
  if (plain.length <= 45) return plain;
  const hash = createHash('sha256').update(key).digest('hex');
  return `${suffix}-${hash}`.slice(0, 45);
}

/** Square's payment status (APPROVED, PENDING, COMPLETED, CANCELED, FAILED) in our terms. */
export function mapPaymentStatus(status: string | undefined): GatewayPaymentStatus {
  switch (status) {
    case 'APPROVED':
    case 'PENDING': // accepted, not yet settled: treat like a hold
      return 'APPROVED';
    case 'COMPLETED':
      return 'COMPLETED';
    case 'CANCELED':
      return 'CANCELED';
    default:
      return 'FAILED';
  }
}

function mapRefundStatus(status: string | null | undefined): GatewayRefund['status'] {
  switch (status) {
    case 'COMPLETED':
    case 'REJECTED':
    case 'FAILED':
      return status;
    default:
      return 'PENDING';
  }
}

function toPayment(payment: Square.Payment | undefined, what: string): GatewayPayment {
  if (!payment?.id) throw new PaymentFailure('GATEWAY_ERROR', `Square answered ${what} without a payment.`, false, true);
  return {
    id: payment.id,
    status: mapPaymentStatus(payment.status),
    amountCents: cents(payment.amountMoney),
    // Compared with our row on every confirm: a payment without a currency matches none.
    currency: payment.amountMoney?.currency ?? '',
    ...(payment.referenceId ? { referenceId: payment.referenceId } : {}),
    ...(payment.cardDetails?.card?.last4 ? { card: { brand: payment.cardDetails.card.cardBrand ?? 'Card', last4: payment.cardDetails.card.last4 } } : {}),
  };
}

/**
 * Any error from the SDK (or the network under it) as a PaymentFailure. A 4xx answer means
 * Square did not process the request (a decline keeps its FAILED payment); a timeout, a lost
 * connection or a 5xx leaves the outcome unknown.
 */
export function toPaymentFailure(error: unknown): PaymentFailure {
  if (error instanceof PaymentFailure) return error;
  if (error instanceof SquareTimeoutError) {
    return new PaymentFailure('GATEWAY_ERROR', `Square did not answer in time: ${error.message}`, false, true);
  }
  if (error instanceof SquareError) {
    const hasSquareErrors =
      error.statusCode !== undefined && typeof error.body === 'object' && error.body !== null && Array.isArray((error.body as { errors?: unknown }).errors);
    const uncertain = error.statusCode === undefined || error.statusCode >= 500;
    if (hasSquareErrors && error.errors.length > 0) {
      const first = error.errors.find((e) => e.category === 'PAYMENT_METHOD_ERROR') ?? error.errors[0]!;
      return new PaymentFailure(
        String(first.code),
        first.detail ?? `Square answered ${error.statusCode} (${first.category}).`,
        first.category === 'PAYMENT_METHOD_ERROR',
        uncertain,
      );
    }
    const where = error.statusCode !== undefined ? `HTTP ${error.statusCode}` : 'no answer';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new PaymentFailure('GATEWAY_ERROR', `Square request failed (${where})${cause}`, false, uncertain);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PaymentFailure('GATEWAY_ERROR', `Square request failed: ${message}`, false, true);
}

export function createSquareGateway(options: SquareGatewayOptions): PaymentGateway {
  const client = new SquareClient({
    token: options.accessToken,
    ...(options.baseUrl
      ? { baseUrl: options.baseUrl }
      : { environment: options.environment === 'production' ? SquareEnvironment.Production : SquareEnvironment.Sandbox }),
    maxRetries: options.maxRetries ?? 2,
    timeoutInSeconds: options.timeoutInSeconds ?? 30,
  });
  const locationId = options.locationId;

  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toPaymentFailure(error);
    }
  }

  async function currentStatus(paymentId: string): Promise<GatewayPayment | null> {
    try {
      const { payment } = await client.payments.get({ paymentId });
      return toPayment(payment, 'GetPayment');
    } catch {
      return null;
    }
  }

  async function createPayment(input: MoneyRequest, autocomplete: boolean): Promise<GatewayPayment> {
    requireAmount(input.amountCents);
    const request: Square.CreatePaymentRequest = {
      sourceId: input.sourceId,
      idempotencyKey: input.idempotencyKey,
      amountMoney: money(input.amountCents),
      autocomplete,
      locationId,
      referenceId: input.idempotencyKey,
      ...(autocomplete ? {} : { delayDuration: AUTHORIZATION_HOLD, delayAction: 'CANCEL' }),
      ...(input.customerId ? { customerId: input.customerId } : {}),
      ...(input.note ? { note: input.note.slice(0, 500) } : {}),
    };
    const { payment } = await call(() => client.payments.create(request));
    return toPayment(payment, 'CreatePayment');
  }

  return {
    name: 'square',

    async saveCard(input): Promise<SavedCard> {
      let customerId = input.customerId ?? null;
      if (!customerId) {
        const { referenceId, email, name } = input.customer;
        const { customer } = await call(() =>
          client.customers.create({
            idempotencyKey: derivedKey(input.idempotencyKey, 'cust'),
            referenceId,
            ...(email ? { emailAddress: email } : {}),
            // Square wants at least one of given name, family name, company, email, phone.
            ...(name || !email ? { givenName: name || referenceId } : {}),
            nickname: name || referenceId,
          }),
        );
        if (!customer?.id) throw new PaymentFailure('GATEWAY_ERROR', 'Square created no customer.', false);
        customerId = customer.id;
      }
      const owner = customerId;
      const { card } = await call(() =>
        client.cards.create({
          idempotencyKey: input.idempotencyKey,
          sourceId: input.sourceId,
          card: { customerId: owner, referenceId: input.customer.referenceId },
        }),
      );
      if (!card?.id) throw new PaymentFailure('GATEWAY_ERROR', 'Square saved no card.', false);
      return {
        customerId: owner,
        cardId: card.id,
        brand: card.cardBrand ?? 'OTHER_BRAND',
        last4: card.last4 ?? '',
        expMonth: Number(card.expMonth ?? 0),
        expYear: Number(card.expYear ?? 0),
        ...(card.fingerprint ? { fingerprint: card.fingerprint } : {}),
      };
    },

    authorize(input) {
      return createPayment(input, false);
    },

    charge(input) {
      return createPayment(input, true);
    },

    async capture(paymentId) {
      try {
        const { payment } = await client.payments.complete({ paymentId });
        return toPayment(payment, 'CompletePayment');
      } catch (error) {
        const failure = toPaymentFailure(error);
        // Already captured (a retry, or an answer lost on the way): that is success.
        const current = await currentStatus(paymentId);
        if (current?.status === 'COMPLETED') return current;
        throw failure;
      }
    },

    async void(paymentId) {
      try {
        const { payment } = await client.payments.cancel({ paymentId });
        return toPayment(payment, 'CancelPayment');
      } catch (error) {
        const failure = toPaymentFailure(error);
        const current = await currentStatus(paymentId);
        if (current?.status === 'CANCELED') return current;
        throw failure;
      }
    },

    async getPayment(paymentId) {
      const { payment } = await call(() => client.payments.get({ paymentId }));
      return toPayment(payment, 'GetPayment');
    },

    async findPayments(referenceIds, since) {
      const wanted = new Set(referenceIds);
      const found = new Map<string, GatewayPayment>();
      if (wanted.size === 0) return found;
      // Slack for our clock running ahead of Square's: a charge Square stamped before `since` by
      // its clock is still listed. Fifteen minutes of a small shop's payments is a page or two.
      const beginTime = new Date(since - CLOCK_SKEW_SLACK_MS).toISOString();
      await call(async () => {
        const page = await client.payments.list({ beginTime, locationId, sortOrder: 'ASC', limit: 100 });
        for await (const payment of page) {
          if (payment.referenceId && wanted.has(payment.referenceId)) {
            found.set(payment.referenceId, toPayment(payment, 'ListPayments'));
            if (found.size === wanted.size) break;
          }
        }
      });
      return found;
    },

    async refund(input) {
      requireAmount(input.amountCents);
      const { refund } = await call(() =>
        client.refunds.refundPayment({
          idempotencyKey: input.idempotencyKey,
          paymentId: input.paymentId,
          amountMoney: money(input.amountCents),
          ...(input.reason ? { reason: input.reason.slice(0, 192) } : {}),
        }),
      );
      if (!refund?.id) throw new PaymentFailure('GATEWAY_ERROR', 'Square answered RefundPayment without a refund.', false);
      return { id: refund.id, status: mapRefundStatus(refund.status), amountCents: cents(refund.amountMoney) };
    },
  };
}
