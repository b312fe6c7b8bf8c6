/*
 * The built-in `test` gateway (DESIGN section 5): in memory, behaving like Square's sandbox.
 *
 * Sources:
 * - `cnon:card-nonce-ok` approves; `cnon:card-nonce-declined` fails with GENERIC_DECLINE,
 *   `-insufficient-funds` INSUFFICIENT_FUNDS, `-rejected-cvv` CVV_FAILURE,
 *   `-rejected-postalcode` ADDRESS_VERIFICATION_FAILURE, `-rejected-expiration`
 *   INVALID_EXPIRATION (all declines: `declined` true). Tokens made by the test card form
 *   (`testTokenForCard`) carry brand, last 4 and expiry after the base token.
 * - a card on file (`ccof:test-...`) saved by `saveCard`. Declined and insufficient-funds
 *   cards save fine and every payment on them declines; CVV, postal code and expiry
 *   failures are refused already when saving, as Square verifies those then.
 * - anything else fails with INVALID_CARD_DATA (`declined` false: a request problem).
 *
 * Nothing here survives a restart, so the ids carry what is needed to carry on after one:
 * a card-on-file id encodes its outcome, brand, last 4 and expiry, and capture/void of an
 * unknown `test-pay-...` id succeed (amount 0) rather than strand an order.
 */
import { type GatewayPayment, type GatewayRefund, type MoneyRequest, type PaymentGateway, PaymentFailure, type SavedCard, STORE_CURRENCY } from './gateway.ts';
import { parseTestNonce, TEST_OUTCOMES, type TestCardOutcome, type TestNonceInfo } from '../../shared/test-cards.ts';

export const TEST_PAYMENT_PREFIX = 'test-pay-';
export const TEST_CARD_PREFIX = 'ccof:test-';
export const TEST_CUSTOMER_PREFIX = 'test-cust-';

interface StoredCard extends TestNonceInfo {
  id: string;
  customerId: string | null;
}

interface StoredPayment {
  payment: GatewayPayment;
  sourceId: string;
  customerId: string | null;
  refundedCents: number;
}

/** What a remembered idempotency key answers: the same request gets the same result again. */
interface Remembered<T> {
  fingerprint: string;
  result: { ok: true; value: T } | { ok: false; failure: PaymentFailure };
}

export interface TestGateway extends PaymentGateway {
  readonly name: 'test';
  /** Every payment created (authorized, charged, then maybe captured/voided), oldest first. Declines are not listed. */
  payments(): GatewayPayment[];
  /** Every refund made, oldest first. */
  refunds(): (GatewayRefund & { paymentId: string })[];
  /** Every card saved on file, oldest first. */
  cards(): SavedCard[];
}

function randomPart(length = 20): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, length);
}

function requireAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new PaymentFailure('INVALID_VALUE', `Amount must be a positive whole number of cents, got ${amountCents}.`, false);
  }
}

function requireKey(idempotencyKey: string): void {
  if (!idempotencyKey || idempotencyKey.length > 45) {
    throw new PaymentFailure('INVALID_VALUE', 'idempotencyKey must be 1 to 45 characters.', false);
  }
}

function declineFor(outcome: TestCardOutcome): PaymentFailure | null {
  const rule = TEST_OUTCOMES[outcome];
  return rule.code ? new PaymentFailure(rule.code, rule.detail, true) : null;
}

function invalidSource(sourceId: string): PaymentFailure {
  return new PaymentFailure(
    'INVALID_CARD_DATA',
    `The test gateway does not know the card token "${sourceId}". Use cnon:card-nonce-ok, cnon:card-nonce-declined ` +
      '(or -insufficient-funds, -rejected-cvv, -rejected-postalcode, -rejected-expiration), a token from the test card ' +
      'form, or a saved ccof:test-... card.',
    false,
  );
}

/** `ccof:test-<random>.<outcome>.<BRAND>.<last4>.<month>.<year>`: readable after a restart. */
function cardIdFor(info: TestNonceInfo): string {
  return `${TEST_CARD_PREFIX}${randomPart(12)}.${info.outcome}.${info.brand}.${info.last4}.${info.expMonth}.${info.expYear}`;
}

function cardFromId(id: string): TestNonceInfo | null {
  if (!id.startsWith(TEST_CARD_PREFIX)) return null;
  const [, outcome, brand, last4, month, year] = id.slice(TEST_CARD_PREFIX.length).split('.');
  if (!outcome || !(outcome in TEST_OUTCOMES) || !brand || !last4) return null;
  const expMonth = Number(month);
  const expYear = Number(year);
  if (!Number.isInteger(expMonth) || !Number.isInteger(expYear)) return null;
  return { outcome: outcome as TestCardOutcome, brand, last4, expMonth, expYear };
}

/**
 * How much the gateway remembers of each kind (payments, keys, cards, refunds). A restart forgets
 * everything and the ids carry what is needed to carry on (above); the bound keeps a long run in
 * test mode (a demo store, the soak: 55,000 payments in 10 minutes) from growing without end (about
 * 1.5 KiB a payment). An entry 5,000 payments old is forgotten as after a restart.
 */
export const TEST_GATEWAY_MEMORY = 5_000;

export function createTestGateway(options: { memory?: number } = {}): TestGateway {
  const memoryBound = options.memory ?? TEST_GATEWAY_MEMORY;
  function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
    map.set(key, value);
    if (map.size > memoryBound) map.delete(map.keys().next().value as K);
  }
  function keepLatest<T>(list: T[], item: T): void {
    list.push(item);
    if (list.length > memoryBound) list.shift();
  }

  const cards = new Map<string, StoredCard>();
  const savedCards: SavedCard[] = [];
  const customers = new Map<string, string>(); // customer idempotency key -> customer id
  const payments = new Map<string, StoredPayment>();
  const refunds: (GatewayRefund & { paymentId: string })[] = [];
  const saveKeys = new Map<string, Remembered<SavedCard>>();
  const paymentKeys = new Map<string, Remembered<GatewayPayment>>();
  const refundKeys = new Map<string, Remembered<GatewayRefund>>();
  /** Payments by reference id (our idempotency key), declines included as FAILED. */
  const byReference = new Map<string, GatewayPayment & { createdAt: number }>();

  /** Runs `work` once per idempotency key; a retry with the same request gets the same answer. */
  async function once<T>(memory: Map<string, Remembered<T>>, key: string, fingerprint: unknown, work: () => T): Promise<T> {
    requireKey(key);
    const print = JSON.stringify(fingerprint);
    const seen = memory.get(key);
    if (seen) {
      if (seen.fingerprint !== print) {
        throw new PaymentFailure('IDEMPOTENCY_KEY_REUSED', `The idempotency key ${key} was already used for a different request.`, false);
      }
      if (!seen.result.ok) throw seen.result.failure;
      return structuredClone(seen.result.value);
    }
    try {
      const value = work();
      remember(memory, key, { fingerprint: print, result: { ok: true, value: structuredClone(value) } });
      return value;
    } catch (error) {
      // Square keeps a failed payment under its key too; bad requests (not declines) may be retried.
      if (error instanceof PaymentFailure && error.declined) {
        remember(memory, key, { fingerprint: print, result: { ok: false, failure: error } });
      }
      throw error;
    }
  }

  function resolveSource(sourceId: string, customerId: string | null | undefined): TestNonceInfo {
    if (sourceId.startsWith('ccof:')) {
      const stored = cards.get(sourceId);
      const info = stored ?? cardFromId(sourceId);
      if (!info) throw new PaymentFailure('CARD_NOT_FOUND', `Card on file ${sourceId} was not found.`, false);
      if (!customerId) {
        throw new PaymentFailure('MISSING_REQUIRED_PARAMETER', 'customerId is required to pay with a card on file.', false);
      }
      if (stored?.customerId && stored.customerId !== customerId) {
        throw new PaymentFailure('CARD_MISMATCH', `Card on file ${sourceId} belongs to another customer.`, false);
      }
      return info;
    }
    const info = parseTestNonce(sourceId);
    if (!info) throw invalidSource(sourceId);
    return info;
  }

  async function createPayment(input: MoneyRequest, autocomplete: boolean): Promise<GatewayPayment> {
    requireAmount(input.amountCents);
    const fingerprint = {
      sourceId: input.sourceId,
      customerId: input.customerId ?? null,
      amountCents: input.amountCents,
      autocomplete,
      note: input.note ?? null,
    };
    return once(paymentKeys, input.idempotencyKey, fingerprint, () => {
      const info = resolveSource(input.sourceId, input.customerId);
      const referenceId = input.idempotencyKey;
      const decline = declineFor(info.outcome);
      if (decline) {
        const failed = {
          id: `${TEST_PAYMENT_PREFIX}${randomPart()}`,
          status: 'FAILED' as const,
          amountCents: input.amountCents,
          currency: STORE_CURRENCY,
          referenceId,
        };
        remember(byReference, referenceId, { ...failed, createdAt: Date.now() });
        throw decline;
      }
      const payment: GatewayPayment = {
        id: `${TEST_PAYMENT_PREFIX}${randomPart()}`,
        status: autocomplete ? 'COMPLETED' : 'APPROVED',
        amountCents: input.amountCents,
        currency: STORE_CURRENCY,
        referenceId,
        card: { brand: info.brand, last4: info.last4 },
      };
      remember(payments, payment.id, {
        payment,
        sourceId: input.sourceId,
        customerId: input.customerId ?? null,
        refundedCents: 0,
      });
      remember(byReference, referenceId, Object.assign(payment, { createdAt: Date.now() }));
      return {
        id: payment.id,
        status: payment.status,
        amountCents: payment.amountCents,
        currency: STORE_CURRENCY,
        referenceId,
        card: { brand: info.brand, last4: info.last4 },
      };
    });
  }

  function publicPayment(payment: GatewayPayment): GatewayPayment {
    return {
      id: payment.id,
      status: payment.status,
      amountCents: payment.amountCents,
      currency: payment.currency,
      ...(payment.referenceId ? { referenceId: payment.referenceId } : {}),
      ...(payment.card ? { card: payment.card } : {}),
    };
  }

  /** A payment this gateway made before a restart: settle it rather than strand the order. */
  function recovered(paymentId: string, status: 'COMPLETED' | 'CANCELED'): StoredPayment {
    const stored: StoredPayment = {
      payment: { id: paymentId, status, amountCents: 0, currency: STORE_CURRENCY },
      sourceId: '',
      customerId: null,
      refundedCents: 0,
    };
    remember(payments, paymentId, stored);
    return stored;
  }

  function notFound(paymentId: string): PaymentFailure {
    return new PaymentFailure('NOT_FOUND', `Payment ${paymentId} was not found.`, false);
  }

  return {
    name: 'test',

    async saveCard(input) {
      const fingerprint = { sourceId: input.sourceId, customerId: input.customerId ?? null, customer: input.customer };
      return once(saveKeys, input.idempotencyKey, fingerprint, () => {
        const info = parseTestNonce(input.sourceId);
        if (!info) throw invalidSource(input.sourceId);
        const rule = TEST_OUTCOMES[info.outcome];
        if (rule.failsOnSave && rule.code) throw new PaymentFailure(rule.code, rule.detail, true);

        let customerId = input.customerId ?? null;
        if (!customerId) {
          const customerKey = `customer:${input.idempotencyKey}`;
          customerId = customers.get(customerKey) ?? `${TEST_CUSTOMER_PREFIX}${randomPart()}`;
          remember(customers, customerKey, customerId);
        }
        const id = cardIdFor(info);
        remember(cards, id, { ...info, id, customerId });
        const saved: SavedCard = {
          customerId,
          cardId: id,
          brand: info.brand,
          last4: info.last4,
          expMonth: info.expMonth,
          expYear: info.expYear,
          // A test card is known by brand and last four only, as the fake Square does it.
          fingerprint: `test-${info.brand}-${info.last4}`,
        };
        keepLatest(savedCards, saved);
        return { ...saved };
      });
    },

    authorize(input) {
      return createPayment(input, false);
    },

    charge(input) {
      return createPayment(input, true);
    },

    async capture(paymentId) {
      let stored = payments.get(paymentId);
      if (!stored) {
        if (!paymentId.startsWith(TEST_PAYMENT_PREFIX)) throw notFound(paymentId);
        stored = recovered(paymentId, 'COMPLETED');
      }
      const { payment } = stored;
      if (payment.status === 'APPROVED') payment.status = 'COMPLETED';
      if (payment.status !== 'COMPLETED') {
        throw new PaymentFailure('BAD_REQUEST', `Payment ${paymentId} is ${payment.status} and cannot be captured.`, false);
      }
      return publicPayment(payment);
    },

    async void(paymentId) {
      let stored = payments.get(paymentId);
      if (!stored) {
        if (!paymentId.startsWith(TEST_PAYMENT_PREFIX)) throw notFound(paymentId);
        stored = recovered(paymentId, 'CANCELED');
      }
      const { payment } = stored;
      if (payment.status === 'APPROVED') payment.status = 'CANCELED';
      if (payment.status !== 'CANCELED') {
        throw new PaymentFailure('BAD_REQUEST', `Payment ${paymentId} is ${payment.status} and cannot be voided.`, false);
      }
      return publicPayment(payment);
    },

    async refund(input) {
      requireAmount(input.amountCents);
      const fingerprint = { paymentId: input.paymentId, amountCents: input.amountCents, reason: input.reason ?? null };
      return once(refundKeys, input.idempotencyKey, fingerprint, () => {
        const stored = payments.get(input.paymentId);
        if (!stored) throw notFound(input.paymentId);
        if (stored.payment.status !== 'COMPLETED') {
          throw new PaymentFailure('BAD_REQUEST', `Payment ${input.paymentId} is ${stored.payment.status}; only a completed payment can be refunded.`, false);
        }
        const left = stored.payment.amountCents - stored.refundedCents;
        if (input.amountCents > left) {
          throw new PaymentFailure(
            'REFUND_AMOUNT_INVALID',
            `Cannot refund ${input.amountCents} cents: only ${left} cents of payment ${input.paymentId} are left to refund.`,
            false,
          );
        }
        stored.refundedCents += input.amountCents;
        const refund: GatewayRefund = {
          id: `test-ref-${randomPart()}`,
          status: 'COMPLETED',
          amountCents: input.amountCents,
        };
        keepLatest(refunds, { ...refund, paymentId: input.paymentId });
        return { ...refund };
      });
    },

    async getPayment(paymentId) {
      const stored = payments.get(paymentId);
      if (!stored) throw notFound(paymentId);
      return publicPayment(stored.payment);
    },

    async findPayments(referenceIds) {
      const found = new Map<string, GatewayPayment>();
      for (const id of referenceIds) {
        const payment = byReference.get(id);
        if (payment) found.set(id, publicPayment(payment));
      }
      return found;
    },

    payments() {
      return [...payments.values()].map((stored) => publicPayment(stored.payment));
    },

    refunds() {
      return refunds.map((refund) => ({ ...refund }));
    },

    cards() {
      return savedCards.map((card) => ({ ...card }));
    },
  };
}
