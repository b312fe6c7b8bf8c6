/*
 * One contract for both payment gateways (DESIGN section 5): the built-in test gateway, and
 * the Square gateway on the real SDK pointed at the fake Square server. Then Square-only
 * checks of what went over the wire, test-gateway-only checks, and the test card form rules.
 * Nothing here reaches the internet.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../src/config.ts';
import { type GatewayPayment, type PaymentGateway, PaymentFailure } from '../../src/domain/payments/gateway.ts';
import { gatewayFromConfig } from '../../src/domain/payments/index.ts';
import { createSquareGateway } from '../../src/domain/payments/square-gateway.ts';
import { TEST_CARDS, testTokenForCard } from '../../src/shared/test-cards.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, type FakeSquare, startFakeSquare } from '../helpers/fake-square.ts';

const OK = 'cnon:card-nonce-ok';
const DECLINED = 'cnon:card-nonce-declined';
const NOW = new Date('2026-03-15T12:00:00Z');

interface Harness {
  gateway: PaymentGateway;
  /** Payments that went through (authorized or charged; declines not counted). */
  paymentsMade(): GatewayPayment[];
  stop(): void;
}

async function failureOf(work: Promise<unknown>): Promise<PaymentFailure> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentFailure);
    return error as PaymentFailure;
  }
  throw new Error('expected a PaymentFailure, but the call succeeded');
}

function token(number: string, month = 12, year = 2030, cvc = '123'): string {
  const result = testTokenForCard(number, month, year, cvc, NOW);
  if ('error' in result) throw new Error(result.error);
  return result.token;
}

let keyCounter = 0;
const key = (label: string) => `${label}-${++keyCounter}`;

function squareHarness(fake: FakeSquare, maxRetries = 0): Harness {
  return {
    gateway: createSquareGateway({
      accessToken: FAKE_SQUARE_TOKEN,
      locationId: FAKE_SQUARE_LOCATION,
      environment: 'sandbox',
      baseUrl: fake.url,
      maxRetries,
    }),
    paymentsMade: () =>
      fake
        .payments()
        .filter((p) => p.status !== 'FAILED')
        .map((p) => ({ id: p.id, status: p.status, amountCents: p.amount_money.amount, currency: p.amount_money.currency })),
    stop: () => fake.stop(),
  };
}

const implementations: [string, () => Promise<Harness>][] = [
  [
    'test',
    async () => {
      const gateway = createTestGateway();
      return { gateway, paymentsMade: () => gateway.payments(), stop: () => {} };
    },
  ],
  ['square (SDK against the fake Square server)', async () => squareHarness(await startFakeSquare())],
];

describe.each(implementations)('PaymentGateway contract: %s', (_name, start) => {
  let h: Harness;
  beforeEach(async () => {
    h = await start();
  });
  afterEach(() => h.stop());

  const saveCard = (sourceId: string, customerId?: string | null) =>
    h.gateway.saveCard({
      sourceId,
      customerId: customerId ?? null,
      idempotencyKey: key('card'),
      customer: { referenceId: 'user-42', email: 'ada@example.com', name: 'Ada' },
    });

  test('approve: charging the ok token completes the payment for the right amount, currency and reference', async () => {
    const idempotencyKey = key('buy');
    const payment = await h.gateway.charge({ sourceId: OK, amountCents: 1250, idempotencyKey });
    expect(payment.status).toBe('COMPLETED');
    expect(payment.amountCents).toBe(1250);
    expect(payment.id).toBeTruthy();
    expect(h.paymentsMade()).toHaveLength(1);
    // What every confirm compares with our row (issue 25): the same whether charged, fetched or found by reference.
    expect(payment).toMatchObject({ currency: 'USD', referenceId: idempotencyKey });
    expect(await h.gateway.getPayment(payment.id)).toMatchObject({ amountCents: 1250, currency: 'USD', referenceId: idempotencyKey });
    expect((await h.gateway.findPayments([idempotencyKey], Date.now() - 60_000)).get(idempotencyKey)).toMatchObject({ id: payment.id, currency: 'USD' });
  });

  test('decline: GENERIC_DECLINE, declined=true, nothing charged', async () => {
    const failure = await failureOf(h.gateway.charge({ sourceId: DECLINED, amountCents: 1250, idempotencyKey: key('buy') }));
    expect(failure.code).toBe('GENERIC_DECLINE');
    expect(failure.declined).toBe(true);
    expect(h.paymentsMade()).toHaveLength(0);
  });

  test("each of Square's sandbox failure tokens declines with its code", async () => {
    const cases: [string, string][] = [
      ['cnon:card-nonce-rejected-cvv', 'CVV_FAILURE'],
      ['cnon:card-nonce-rejected-postalcode', 'ADDRESS_VERIFICATION_FAILURE'],
      ['cnon:card-nonce-rejected-expiration', 'INVALID_EXPIRATION'],
      ['cnon:card-nonce-insufficient-funds', 'INSUFFICIENT_FUNDS'],
    ];
    for (const [sourceId, code] of cases) {
      const failure = await failureOf(h.gateway.authorize({ sourceId, amountCents: 100, idempotencyKey: key('play') }));
      expect([failure.code, failure.declined]).toEqual([code, true]);
    }
    expect(h.paymentsMade()).toHaveLength(0);
  });

  test('an unknown token is a request error (INVALID_CARD_DATA), not a decline', async () => {
    const failure = await failureOf(h.gateway.charge({ sourceId: 'cnon:made-up', amountCents: 100, idempotencyKey: key('buy') }));
    expect(failure.code).toBe('INVALID_CARD_DATA');
    expect(failure.declined).toBe(false);
  });

  test('amounts must be positive whole cents; nothing is attempted otherwise', async () => {
    for (const amountCents of [0, -5, 1.5]) {
      const failure = await failureOf(h.gateway.charge({ sourceId: OK, amountCents, idempotencyKey: key('buy') }));
      expect(failure.declined).toBe(false);
    }
    expect(h.paymentsMade()).toHaveLength(0);
  });

  test('save a card on file, authorize with it (APPROVED), capture it (COMPLETED); capture is idempotent', async () => {
    const saved = await saveCard(token('5105 1051 0510 5100', 7, 2031));
    expect(saved.cardId.startsWith('ccof:')).toBe(true);
    expect(saved.customerId).toBeTruthy();
    expect(saved).toMatchObject({ brand: 'MASTERCARD', last4: '5100', expMonth: 7, expYear: 2031 });

    const hold = await h.gateway.authorize({
      sourceId: saved.cardId,
      customerId: saved.customerId,
      amountCents: 100,
      idempotencyKey: key('play'),
    });
    expect(hold).toMatchObject({ status: 'APPROVED', amountCents: 100 });

    const captured = await h.gateway.capture(hold.id);
    expect(captured).toMatchObject({ id: hold.id, status: 'COMPLETED', amountCents: 100 });
    expect(await h.gateway.capture(hold.id)).toMatchObject({ id: hold.id, status: 'COMPLETED' });

    // A second card for the same shopper reuses the customer.
    const second = await saveCard(OK, saved.customerId);
    expect(second.customerId).toBe(saved.customerId);
    expect(second.cardId).not.toBe(saved.cardId);
  });

  test('authorize then void (CANCELED, idempotent); a capture after the void fails', async () => {
    const hold = await h.gateway.authorize({ sourceId: OK, amountCents: 100, idempotencyKey: key('play') });
    expect(hold.status).toBe('APPROVED');
    expect(await h.gateway.void(hold.id)).toMatchObject({ id: hold.id, status: 'CANCELED' });
    expect(await h.gateway.void(hold.id)).toMatchObject({ id: hold.id, status: 'CANCELED' });
    const failure = await failureOf(h.gateway.capture(hold.id));
    expect(failure.declined).toBe(false);
    const charged = await h.gateway.charge({ sourceId: OK, amountCents: 300, idempotencyKey: key('buy') });
    expect((await failureOf(h.gateway.void(charged.id))).declined).toBe(false);
  });

  test('charge then refund; refunding more than is left fails; only completed payments refund', async () => {
    const payment = await h.gateway.charge({ sourceId: OK, amountCents: 1250, idempotencyKey: key('buy') });
    const refund = await h.gateway.refund({ paymentId: payment.id, amountCents: 500, idempotencyKey: key('refund'), reason: 'test' });
    expect(['COMPLETED', 'PENDING']).toContain(refund.status);
    expect(refund.amountCents).toBe(500);
    expect(refund.id).toBeTruthy();

    const tooMuch = await failureOf(h.gateway.refund({ paymentId: payment.id, amountCents: 751, idempotencyKey: key('refund') }));
    expect(tooMuch.code).toBe('REFUND_AMOUNT_INVALID');
    expect(tooMuch.declined).toBe(false);
    const rest = await h.gateway.refund({ paymentId: payment.id, amountCents: 750, idempotencyKey: key('refund') });
    expect(rest.amountCents).toBe(750);
    await failureOf(h.gateway.refund({ paymentId: payment.id, amountCents: 1, idempotencyKey: key('refund') }));

    const hold = await h.gateway.authorize({ sourceId: OK, amountCents: 100, idempotencyKey: key('play') });
    expect((await failureOf(h.gateway.refund({ paymentId: hold.id, amountCents: 100, idempotencyKey: key('refund') }))).declined).toBe(false);
  });

  test('a retried call with the same idempotency key creates one payment only', async () => {
    const request = { sourceId: OK, amountCents: 1250, idempotencyKey: key('order-17') };
    const first = await h.gateway.charge(request);
    const again = await h.gateway.charge({ ...request });
    expect(again.id).toBe(first.id);
    expect(h.paymentsMade()).toHaveLength(1);

    const reused = await failureOf(h.gateway.charge({ ...request, amountCents: 999 }));
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(reused.declined).toBe(false);
    expect(h.paymentsMade()).toHaveLength(1);

    const refundRequest = { paymentId: first.id, amountCents: 100, idempotencyKey: key('refund') };
    const refund = await h.gateway.refund(refundRequest);
    expect((await h.gateway.refund({ ...refundRequest })).id).toBe(refund.id);
    const left = await h.gateway.refund({ paymentId: first.id, amountCents: 1150, idempotencyKey: key('refund') });
    expect(left.amountCents).toBe(1150); // the retry did not refund twice
  });

  test('a retried authorize after a decline declines again without a new attempt going through', async () => {
    const request = { sourceId: DECLINED, amountCents: 100, idempotencyKey: key('play') };
    expect((await failureOf(h.gateway.authorize(request))).code).toBe('GENERIC_DECLINE');
    expect((await failureOf(h.gateway.authorize({ ...request }))).code).toBe('GENERIC_DECLINE');
    expect(h.paymentsMade()).toHaveLength(0);
  });

  test('a card on file from a declining card saves, then declines on authorize', async () => {
    const declining = await saveCard(token('4000 0000 0000 0002'));
    expect(declining.last4).toBe('0002');
    const failure = await failureOf(
      h.gateway.authorize({ sourceId: declining.cardId, customerId: declining.customerId, amountCents: 100, idempotencyKey: key('play') }),
    );
    expect([failure.code, failure.declined]).toEqual(['GENERIC_DECLINE', true]);

    const broke = await saveCard(token('4000000000009995'));
    const poor = await failureOf(h.gateway.charge({ sourceId: broke.cardId, customerId: broke.customerId, amountCents: 100, idempotencyKey: key('buy') }));
    expect([poor.code, poor.declined]).toEqual(['INSUFFICIENT_FUNDS', true]);
    expect(h.paymentsMade()).toHaveLength(0);
  });

  test('cards failing verification (CVV) are refused when saved', async () => {
    const failure = await failureOf(saveCard(token('4000000000000127')));
    expect([failure.code, failure.declined]).toEqual(['CVV_FAILURE', true]);
  });
});

describe('square gateway: what goes over the wire', () => {
  let fake: FakeSquare;
  let gateway: PaymentGateway;
  beforeEach(async () => {
    fake = await startFakeSquare();
    gateway = squareHarness(fake).gateway;
  });
  afterEach(() => fake.stop());

  const posts = (path: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === path);

  test("finding charges by reference tolerates the store's clock running minutes ahead of Square's", async () => {
    // The reconciler searches from its own record's time; Square stamps the charge by its clock.
    const idempotencyKey = key('skew');
    const payment = await gateway.charge({ sourceId: OK, amountCents: 500, idempotencyKey });
    const storeClockAhead = Date.now() + 5 * 60_000;
    expect((await gateway.findPayments([idempotencyKey], storeClockAhead)).get(idempotencyKey)).toMatchObject({ id: payment.id });
    const [listed] = fake.requests.filter((r) => r.method === 'GET' && r.path === '/v2/payments');
    expect(Date.parse(listed!.query.get('begin_time')!)).toBe(storeClockAhead - 15 * 60_000);
  });

  test('authorize: autocomplete false with a 7-day delay, location, integer cents in USD, short key', async () => {
    const idempotencyKey = 'play-123456789-user-42';
    await gateway.authorize({ sourceId: OK, amountCents: 100, idempotencyKey });
    const [sent] = posts('/v2/payments');
    expect(sent!.body).toMatchObject({
      source_id: OK,
      idempotency_key: idempotencyKey,
      autocomplete: false,
      delay_duration: 'P7D',
      location_id: FAKE_SQUARE_LOCATION,
      amount_money: { amount: 100, currency: 'USD' },
    });
    expect(sent!.rawBody).toContain('"amount":100');
    expect(sent!.body.idempotency_key.length).toBeLessThanOrEqual(45);
    expect(sent!.body.customer_id).toBeUndefined();
  });

  test('charge: autocomplete true, no delay', async () => {
    await gateway.charge({ sourceId: OK, amountCents: 4999, idempotencyKey: 'order-9' });
    const [sent] = posts('/v2/payments');
    expect(sent!.body).toMatchObject({ autocomplete: true, location_id: FAKE_SQUARE_LOCATION, amount_money: { amount: 4999, currency: 'USD' } });
    expect(sent!.body.delay_duration).toBeUndefined();
    expect(Number.isInteger(sent!.body.amount_money.amount)).toBe(true);
  });

  test('saveCard: Customers then Cards; card-on-file payments send customer_id', async () => {
    const saved = await gateway.saveCard({
      sourceId: OK,
      idempotencyKey: 'card-user-42-1',
      customer: { referenceId: 'user-42', email: 'ada@example.com', name: 'Ada Lovelace' },
    });
    const [customer] = posts('/v2/customers');
    expect(customer!.body).toMatchObject({ reference_id: 'user-42', email_address: 'ada@example.com', given_name: 'Ada Lovelace' });
    expect(customer!.body.idempotency_key).toBeTruthy();
    expect(customer!.body.idempotency_key.length).toBeLessThanOrEqual(45);
    const [card] = posts('/v2/cards');
    expect(card!.body).toMatchObject({ idempotency_key: 'card-user-42-1', source_id: OK, card: { customer_id: saved.customerId } });
    expect(saved).toMatchObject({ brand: 'VISA', last4: '1111' });

    // With a customer already on file, no second customer is created.
    await gateway.saveCard({
      sourceId: OK,
      customerId: saved.customerId,
      idempotencyKey: 'card-user-42-2',
      customer: { referenceId: 'user-42' },
    });
    expect(posts('/v2/customers')).toHaveLength(1);

    await gateway.authorize({ sourceId: saved.cardId, customerId: saved.customerId, amountCents: 100, idempotencyKey: 'play-1' });
    expect(posts('/v2/payments')[0]!.body).toMatchObject({ source_id: saved.cardId, customer_id: saved.customerId });
    expect(fake.customers()).toHaveLength(1);
  });

  test('a long idempotency key for the customer is shortened to 45 characters', async () => {
    const idempotencyKey = 'k'.repeat(45);
    await gateway.saveCard({ sourceId: OK, idempotencyKey, customer: { referenceId: 'user-1', email: 'a@b.example' } });
    expect(posts('/v2/customers')[0]!.body.idempotency_key.length).toBeLessThanOrEqual(45);
    expect(posts('/v2/customers')[0]!.body.idempotency_key).not.toBe(idempotencyKey);
  });

  test('capture, void and refund use complete, cancel and refunds; a repeated capture checks the payment', async () => {
    const hold = await gateway.authorize({ sourceId: OK, amountCents: 100, idempotencyKey: 'play-2' });
    await gateway.capture(hold.id);
    expect(posts(`/v2/payments/${hold.id}/complete`)).toHaveLength(1);
    await gateway.capture(hold.id); // Square refuses; the gateway looks the payment up and finds it COMPLETED
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v2/payments/${hold.id}`)).toBe(true);

    const other = await gateway.authorize({ sourceId: OK, amountCents: 100, idempotencyKey: 'play-3' });
    await gateway.void(other.id);
    expect(posts(`/v2/payments/${other.id}/cancel`)).toHaveLength(1);

    await gateway.refund({ paymentId: hold.id, amountCents: 40, idempotencyKey: 'refund-1', reason: 'Game canceled' });
    expect(posts('/v2/refunds')[0]!.body).toMatchObject({
      payment_id: hold.id,
      idempotency_key: 'refund-1',
      amount_money: { amount: 40, currency: 'USD' },
      reason: 'Game canceled',
    });
  });

  test('every request carries the Bearer token and a Square-Version', async () => {
    const saved = await gateway.saveCard({ sourceId: OK, idempotencyKey: 'c-1', customer: { referenceId: 'u', email: 'u@x.example' } });
    const p = await gateway.charge({ sourceId: saved.cardId, customerId: saved.customerId, amountCents: 100, idempotencyKey: 'b-1' });
    await gateway.refund({ paymentId: p.id, amountCents: 100, idempotencyKey: 'r-1' });
    expect(fake.requests.length).toBeGreaterThanOrEqual(4);
    for (const request of fake.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${FAKE_SQUARE_TOKEN}`);
      expect(request.headers['square-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test('a wrong access token is a gateway-side failure (UNAUTHORIZED), not a decline', async () => {
    const wrong = createSquareGateway({ accessToken: 'nope', locationId: FAKE_SQUARE_LOCATION, environment: 'sandbox', baseUrl: fake.url, maxRetries: 0 });
    const failure = await failureOf(wrong.charge({ sourceId: OK, amountCents: 100, idempotencyKey: 'x-1' }));
    expect([failure.code, failure.declined]).toEqual(['UNAUTHORIZED', false]);
    expect(fake.requests[0]!.status).toBe(401);
  });

  test('a 500 whose answer was lost is retried by the SDK with the same key: one payment', async () => {
    const retrying = squareHarness(fake, 1).gateway;
    fake.failNext({ status: 500, afterProcessing: true });
    const payment = await retrying.charge({ sourceId: OK, amountCents: 700, idempotencyKey: 'order-lost-answer' });
    expect(payment.status).toBe('COMPLETED');
    const sent = posts('/v2/payments');
    expect(sent.map((r) => r.status)).toEqual([500, 200]);
    expect(sent[0]!.rawBody).toBe(sent[1]!.rawBody);
    expect(fake.payments()).toHaveLength(1);
  });

  test('a 5xx with retries off, and an unreachable server, fail without a decline', async () => {
    fake.failNext({ status: 503 });
    const busy = await failureOf(gateway.charge({ sourceId: OK, amountCents: 100, idempotencyKey: 'o-1' }));
    expect([busy.code, busy.declined]).toEqual(['SERVICE_UNAVAILABLE', false]);

    const gone = await startFakeSquare();
    const url = gone.url;
    gone.stop();
    const unreachable = createSquareGateway({
      accessToken: FAKE_SQUARE_TOKEN,
      locationId: FAKE_SQUARE_LOCATION,
      environment: 'sandbox',
      baseUrl: url,
      maxRetries: 0,
    });
    const failure = await failureOf(unreachable.charge({ sourceId: OK, amountCents: 100, idempotencyKey: 'o-2' }));
    expect([failure.code, failure.declined]).toEqual(['GATEWAY_ERROR', false]);
  });

  test('a declined payment reaches Square once and leaves a FAILED payment there', async () => {
    await failureOf(gateway.charge({ sourceId: DECLINED, amountCents: 100, idempotencyKey: 'd-1' }));
    expect(posts('/v2/payments')[0]!.status).toBe(402);
    expect(fake.payments().map((p) => p.status)).toEqual(['FAILED']);
  });
});

describe('test gateway only', () => {
  test('payments() lists what was created, for tests to count charges', async () => {
    const gateway = createTestGateway();
    expect(gateway.name).toBe('test');
    const a = await gateway.charge({ sourceId: OK, amountCents: 100, idempotencyKey: 'a' });
    await gateway.authorize({ sourceId: OK, amountCents: 200, idempotencyKey: 'b' });
    await gateway.charge({ sourceId: OK, amountCents: 100, idempotencyKey: 'a' });
    expect(gateway.payments().map((p) => [p.status, p.amountCents])).toEqual([
      ['COMPLETED', 100],
      ['APPROVED', 200],
    ]);
    expect(gateway.payments()[0]!.id).toBe(a.id);
    expect(a.id.startsWith('test-pay-')).toBe(true);
  });

  test('after a restart: capture/void of its own ids succeed, saved cards still work, foreign ids fail', async () => {
    const before = createTestGateway();
    const hold = await before.authorize({ sourceId: OK, amountCents: 100, idempotencyKey: 'p1' });
    const other = await before.authorize({ sourceId: OK, amountCents: 100, idempotencyKey: 'p2' });
    const good = await before.saveCard({ sourceId: OK, idempotencyKey: 's1', customer: { referenceId: 'u1' } });
    const bad = await before.saveCard({ sourceId: DECLINED, idempotencyKey: 's2', customer: { referenceId: 'u1' } });

    const after = createTestGateway();
    expect((await after.capture(hold.id)).status).toBe('COMPLETED');
    expect((await after.void(other.id)).status).toBe('CANCELED');
    expect((await failureOf(after.capture('R2B3Z8WMVt3EAmzYWLZvz7Y69EbZY'))).code).toBe('NOT_FOUND');
    const charged = await after.charge({ sourceId: good.cardId, customerId: good.customerId, amountCents: 100, idempotencyKey: 'p3' });
    expect(charged.status).toBe('COMPLETED');
    const failure = await failureOf(after.charge({ sourceId: bad.cardId, customerId: bad.customerId, amountCents: 100, idempotencyKey: 'p4' }));
    expect(failure.code).toBe('GENERIC_DECLINE');
    expect((await failureOf(after.charge({ sourceId: 'ccof:someone-else', customerId: 'c', amountCents: 1, idempotencyKey: 'p5' }))).code).toBe(
      'CARD_NOT_FOUND',
    );
  });

  test('a card on file needs its customer', async () => {
    const gateway = createTestGateway();
    const saved = await gateway.saveCard({ sourceId: OK, idempotencyKey: 's', customer: { referenceId: 'u' } });
    expect(saved.customerId.startsWith('test-cust-')).toBe(true);
    expect(saved.cardId.startsWith('ccof:test-')).toBe(true);
    expect((await failureOf(gateway.authorize({ sourceId: saved.cardId, amountCents: 100, idempotencyKey: 'x' }))).declined).toBe(false);
    expect((await failureOf(gateway.authorize({ sourceId: saved.cardId, customerId: 'test-cust-other', amountCents: 100, idempotencyKey: 'y' }))).code).toBe(
      'CARD_MISMATCH',
    );
  });
});

describe('test card form (testTokenForCard)', () => {
  test('every listed test card passes the form and maps to its outcome', () => {
    for (const card of TEST_CARDS) {
      const result = testTokenForCard(card.number, '12', '2030', card.brand === 'AMERICAN_EXPRESS' ? '1234' : '123', NOW);
      if ('error' in result) throw new Error(`${card.number}: ${result.error}`);
      expect(result.token.startsWith(`cnon:card-nonce-${card.outcome}:`)).toBe(true);
      expect(result.brand).toBe(card.brand);
      expect(result.last4).toBe(card.number.slice(-4));
    }
    expect(testTokenForCard('4111 1111 1111 1111', 3, 26, '111', NOW)).toEqual({
      token: 'cnon:card-nonce-ok:VISA:1111:03:2026',
      brand: 'VISA',
      last4: '1111',
    });
  });

  test('validates like a card form', () => {
    const error = (...args: Parameters<typeof testTokenForCard>) => {
      const result = testTokenForCard(...args);
      return 'error' in result ? result.error : null;
    };
    expect(error('4111 1111 1111', 12, 2030, '123', NOW)).toMatch(/13 to 19 digits/);
    expect(error('4111111111111112', 12, 2030, '123', NOW)).toMatch(/not valid/);
    expect(error('4111-1111-1111-111a', 12, 2030, '123', NOW)).toMatch(/digits only/);
    expect(error('4111111111111111', 13, 2030, '123', NOW)).toMatch(/month/);
    expect(error('4111111111111111', 2, 2026, '123', NOW)).toMatch(/expired/);
    expect(error('4111111111111111', 3, 2026, '123', NOW)).toBeNull(); // valid through the end of the month
    expect(error('4111111111111111', 12, 2099, '123', NOW)).toMatch(/year/);
    expect(error('4111111111111111', 12, 2030, '12', NOW)).toMatch(/security code/);
    expect(error('4111111111111111', 12, 2030, '12345', NOW)).toMatch(/security code/);
    // An unlisted number passing Luhn approves; Square's form conventions give failures.
    const unlisted = testTokenForCard('4242424242424242', 12, 2030, '123', NOW);
    expect('token' in unlisted && unlisted.token.startsWith('cnon:card-nonce-ok:VISA:4242')).toBe(true);
    const cvv = testTokenForCard('4242424242424242', 12, 2030, '911', NOW);
    expect('token' in cvv && cvv.token.startsWith('cnon:card-nonce-rejected-cvv:')).toBe(true);
  });
});

describe('gatewayFromConfig', () => {
  test('test gateway by default; Square when configured; a clear error when Square lacks settings', async () => {
    expect((await gatewayFromConfig(loadConfig({}))).name).toBe('test');
    expect((await gatewayFromConfig(loadConfig({ SQUARE_ACCESS_TOKEN: 'EAAA-x', SQUARE_LOCATION_ID: 'L1', SQUARE_BASE_URL: 'http://127.0.0.1:9' }))).name).toBe(
      'square',
    );
    // Missing Square settings are refused by loadConfig already, before anything is opened.
    expect(() => loadConfig({ SQUARE_ACCESS_TOKEN: 'EAAA-x' })).toThrow(/SQUARE_LOCATION_ID/);
    expect(() => loadConfig({ PAYMENTS: 'square' })).toThrow(/SQUARE_ACCESS_TOKEN/);
  });
});
