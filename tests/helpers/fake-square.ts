/*
 * A fake Square HTTP server for tests (DESIGN section 5): Bun.serve on a free port, speaking
 * Square's documented wire format (snake_case JSON, `Authorization: Bearer`, error bodies
 * `{"errors":[{category, code, detail, field?}]}`), so the real `square` SDK can be pointed
 * at it with `baseUrl` and nothing reaches the internet.
 *
 * Endpoints: POST /v2/customers, POST /v2/cards, POST /v2/payments,
 * POST /v2/payments/{id}/complete, POST /v2/payments/{id}/cancel, GET /v2/payments/{id},
 * POST /v2/refunds.
 *
 * Cards behave like Square's sandbox and like the built-in test gateway (the same tables in
 * src/domain/payments/test-cards.ts): `cnon:card-nonce-ok` approves, `cnon:card-nonce-declined`
 * answers 402 with PAYMENT_METHOD_ERROR / GENERIC_DECLINE, and so on. Creates are idempotent
 * by `idempotency_key` per endpoint: the same key and body replay the first answer, the same
 * key with another body answers IDEMPOTENCY_KEY_REUSED.
 *
 * Every request is recorded (method, path, headers, parsed body, answer status) so a test can
 * check what the SDK actually sent.
 */
import { parseTestNonce, TEST_OUTCOMES, type TestNonceInfo } from '../../src/shared/test-cards.ts';

export const FAKE_SQUARE_TOKEN = 'EAAAfake-square-sandbox-token';
export const FAKE_SQUARE_LOCATION = 'LFAKE5QUARE0LOC';

/** Parsed JSON that tests dig into freely. */
type Json = any;

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. /v2/payments. */
  path: string;
  /** The query string's parameters (ListPayments' begin_time...). */
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (null when none or not JSON). */
  body: Json;
  /** The body exactly as sent, to check how numbers were written. */
  rawBody: string;
  /** The status the fake answered with. */
  status: number;
}

export interface SquareWireError {
  category: string;
  code: string;
  detail: string;
  field?: string;
}

export interface Fault {
  /** HTTP status to answer with (default 500). */
  status?: number;
  /** Do the work first and then answer with the fault, as when an answer is lost on the way back. */
  afterProcessing?: boolean;
  /** Close the connection without an HTTP answer (the client sees a connection reset). */
  drop?: boolean;
  /** Never answer (until stop()): the client times out. */
  hang?: boolean;
}

/** Which requests a fault or a latency rule applies to: `path` is exact, or a RegExp tested on the path. */
export interface RequestMatch {
  method?: string;
  path?: string | RegExp;
}

export function requestMatches(match: RequestMatch | undefined, request: { method: string; path: string }): boolean {
  if (!match) return true;
  if (match.method && match.method !== request.method) return false;
  if (match.path === undefined) return true;
  return typeof match.path === 'string' ? match.path === request.path : match.path.test(request.path);
}

export interface FakeSquare {
  url: string;
  requests: RecordedRequest[];
  /** Payments as Square would return them (snake_case), including FAILED ones, oldest first. */
  payments(): Json[];
  customers(): Json[];
  cards(): Json[];
  refunds(): Json[];
  /** The next request matching `match` (any request when omitted) fails with `fault` instead of its usual answer. */
  failNext(fault?: Fault, match?: RequestMatch): void;
  /**
   * Adds `ms` of latency to matching requests: 'before' (default) waits before doing the work,
   * 'after' does the work and then waits before answering. Rules add up.
   */
  setLatency(ms: number, options?: RequestMatch & { phase?: 'before' | 'after' }): void;
  clearLatency(): void;
  /** Resolves when the count-th matching request (counting those already recorded) has arrived. */
  waitForRequest(match: RequestMatch, options?: { count?: number; timeoutMs?: number }): Promise<RecordedRequest>;
  /** Resolves when the fake has done the work of the count-th matching request (before any 'after' latency). */
  waitForProcessed(match: RequestMatch, options?: { count?: number; timeoutMs?: number }): Promise<RecordedRequest>;
  /** Forgets faults and latency rules (not data). */
  reset(): void;
  stop(): void;
}

export interface FakeSquareOptions {
  /** The only token accepted (default FAKE_SQUARE_TOKEN). */
  accessToken?: string;
  /** The merchant's location; payments naming another one are refused (default FAKE_SQUARE_LOCATION). */
  locationId?: string;
}

class WireError extends Error {
  constructor(
    readonly status: number,
    readonly errors: SquareWireError[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(errors.map((e) => e.detail).join('; '));
  }
}

function invalid(code: string, detail: string, field?: string, status = 400): WireError {
  return new WireError(status, [{ category: 'INVALID_REQUEST_ERROR', code, detail, ...(field ? { field } : {}) }]);
}

function notFound(detail: string): WireError {
  return new WireError(404, [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND', detail }]);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function squareId(length = 29): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** Seconds in a simple ISO 8601 duration (P7D, PT36H, P1DT2H30M); null when not one. */
function durationSeconds(text: string): number | null {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, m, s] = match.map((part) => Number(part ?? 0));
  return (w ?? 0) * 604800 + (d ?? 0) * 86400 + (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
}

function requireString(body: Json, field: string, max?: number): string {
  const value = body?.[field];
  if (value === undefined || value === null || value === '') {
    throw invalid('MISSING_REQUIRED_PARAMETER', `Field must be set`, field);
  }
  if (typeof value !== 'string') throw invalid('EXPECTED_STRING', `Expected a string value`, field);
  if (max !== undefined && value.length > max) {
    throw invalid('VALUE_TOO_LONG', `Field must not be greater than ${max} length`, field);
  }
  return value;
}

function requireMoney(body: Json, field: string): { amount: number; currency: string } {
  const money = body?.[field];
  if (money === undefined || money === null) throw invalid('MISSING_REQUIRED_PARAMETER', 'Field must be set', field);
  if (typeof money !== 'object') throw invalid('EXPECTED_OBJECT', 'Expected an object', field);
  const amount = money.amount;
  if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    throw invalid('EXPECTED_INTEGER', 'Expected an integer value', `${field}.amount`);
  }
  if (amount < 1) throw invalid('VALUE_TOO_LOW', 'Amount must be greater than 0', `${field}.amount`);
  if (money.currency !== 'USD') {
    throw invalid('CURRENCY_MISMATCH', `This merchant can only process payments in USD, got ${money.currency}`, `${field}.currency`);
  }
  return { amount, currency: money.currency };
}

/** A canonical JSON (sorted keys) so two equal bodies compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export async function startFakeSquare(options: FakeSquareOptions = {}): Promise<FakeSquare> {
  const token = options.accessToken ?? FAKE_SQUARE_TOKEN;
  const locationId = options.locationId ?? FAKE_SQUARE_LOCATION;
  const merchantId = 'MFAKE0MERCHANT';

  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Json>();
  const cards = new Map<string, Json & { _outcome: TestNonceInfo['outcome'] }>();
  const payments = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: Json }>();
  const faults: { fault: Fault; match?: RequestMatch }[] = [];
  const latencies: { ms: number; match: RequestMatch; phase: 'before' | 'after' }[] = [];
  const processed: RecordedRequest[] = [];
  const waiters: { kind: 'arrived' | 'processed'; match: RequestMatch; count: number; resolve: (r: RecordedRequest) => void }[] = [];
  const hanging: (() => void)[] = [];

  function notify(kind: 'arrived' | 'processed'): void {
    const list = kind === 'arrived' ? requests : processed;
    for (const waiter of [...waiters]) {
      if (waiter.kind !== kind) continue;
      const hits = list.filter((r) => requestMatches(waiter.match, r));
      if (hits.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(hits[waiter.count - 1]!);
      }
    }
  }

  function waitFor(kind: 'arrived' | 'processed', match: RequestMatch, options: { count?: number; timeoutMs?: number } = {}): Promise<RecordedRequest> {
    const count = options.count ?? 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = waiters.indexOf(waiter);
        if (index >= 0) waiters.splice(index, 1);
        reject(new Error(`fake Square: no ${kind} request #${count} matching ${String(match.method ?? '*')} ${String(match.path ?? '*')}`));
      }, options.timeoutMs ?? 10_000);
      const waiter = {
        kind,
        match,
        count,
        resolve: (r: RecordedRequest) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      waiters.push(waiter);
      notify(kind);
    });
  }

  function delayFor(record: RecordedRequest, phase: 'before' | 'after'): number {
    return latencies.filter((rule) => rule.phase === phase && requestMatches(rule.match, record)).reduce((sum, rule) => sum + rule.ms, 0);
  }

  function takeFault(record: RecordedRequest): Fault | undefined {
    const index = faults.findIndex((f) => requestMatches(f.match, record));
    return index >= 0 ? faults.splice(index, 1)[0]!.fault : undefined;
  }

  const now = () => new Date().toISOString();

  /** Runs a create once per (endpoint, idempotency key); replays its answer for the same body. */
  function idempotent(endpoint: string, body: Json, work: () => { status: number; body: Json }, keyRequired = true): { status: number; body: Json } {
    if (!keyRequired && (body.idempotency_key === undefined || body.idempotency_key === null)) return work();
    const key = requireString(body, 'idempotency_key', 45);
    const memoryKey = `${endpoint} ${key}`;
    const fingerprint = canonical(body);
    const seen = idempotency.get(memoryKey);
    if (seen) {
      if (seen.fingerprint !== fingerprint) {
        throw invalid('IDEMPOTENCY_KEY_REUSED', 'The idempotency key can only be retried with the same request data.', 'idempotency_key');
      }
      return { status: seen.status, body: structuredClone(seen.body) };
    }
    let answer: { status: number; body: Json };
    try {
      answer = work();
    } catch (error) {
      // A decline is a result: Square keeps it (and its FAILED payment) under the key.
      if (error instanceof WireError && error.errors.some((e) => e.category === 'PAYMENT_METHOD_ERROR')) {
        idempotency.set(memoryKey, { fingerprint, status: error.status, body: { errors: error.errors, ...error.extra } });
      }
      throw error;
    }
    idempotency.set(memoryKey, { fingerprint, status: answer.status, body: structuredClone(answer.body) });
    return answer;
  }

  function publicCard(card: Json): Json {
    const { _outcome, ...rest } = card;
    return structuredClone(rest);
  }

  function cardDetails(info: TestNonceInfo, cardId: string | null, status: string, onFile: boolean): Json {
    return {
      status,
      card: {
        ...(cardId ? { id: cardId } : {}),
        card_brand: info.brand,
        last_4: info.last4,
        exp_month: info.expMonth,
        exp_year: info.expYear,
        fingerprint: `sq-1-${info.brand}-${info.last4}`,
        card_type: 'CREDIT',
        prepaid_type: 'NOT_PREPAID',
        bin: '411111',
      },
      entry_method: onFile ? 'ON_FILE' : 'KEYED',
      cvv_status: info.outcome === 'rejected-cvv' ? 'CVV_REJECTED' : onFile ? 'CVV_NOT_CHECKED' : 'CVV_ACCEPTED',
      avs_status: info.outcome === 'rejected-postalcode' ? 'AVS_REJECTED' : onFile ? 'AVS_NOT_CHECKED' : 'AVS_ACCEPTED',
      statement_description: 'SQ *FAKE STORE',
      card_payment_timeline: { authorized_at: now() },
    };
  }

  function createCustomer(body: Json) {
    return idempotent(
      'CreateCustomer',
      body,
      () => {
        if (!body.given_name && !body.family_name && !body.company_name && !body.email_address && !body.phone_number) {
          throw invalid(
            'BAD_REQUEST',
            'At least one of the following parameters must be present: given_name, family_name, company_name, email_address, phone_number.',
          );
        }
        const customer = {
          id: squareId(26).toUpperCase(),
          created_at: now(),
          updated_at: now(),
          ...(body.given_name ? { given_name: body.given_name } : {}),
          ...(body.family_name ? { family_name: body.family_name } : {}),
          ...(body.nickname ? { nickname: body.nickname } : {}),
          ...(body.email_address ? { email_address: body.email_address } : {}),
          ...(body.reference_id ? { reference_id: body.reference_id } : {}),
          preferences: { email_unsubscribed: false },
          creation_source: 'THIRD_PARTY',
          version: 0,
        };
        customers.set(customer.id, customer);
        return { status: 200, body: { customer } };
      },
      false,
    );
  }

  function createCard(body: Json) {
    return idempotent('CreateCard', body, () => {
      const sourceId = requireString(body, 'source_id');
      if (!body.card || typeof body.card !== 'object') throw invalid('MISSING_REQUIRED_PARAMETER', 'Field must be set', 'card');
      const customerId = requireString(body.card, 'customer_id');
      if (!customers.has(customerId)) throw notFound(`Customer with ID \`${customerId}\` not found.`);
      const info = parseTestNonce(sourceId);
      if (!info) throw invalid('INVALID_CARD_DATA', 'Invalid card data.', 'source_id');
      const rule = TEST_OUTCOMES[info.outcome];
      if (rule.failsOnSave && rule.code) {
        throw new WireError(402, [{ category: 'PAYMENT_METHOD_ERROR', code: rule.code, detail: rule.detail }]);
      }
      const card = {
        id: `ccof:${squareId(22)}`,
        card_brand: info.brand,
        last_4: info.last4,
        exp_month: info.expMonth,
        exp_year: info.expYear,
        ...(body.card.cardholder_name ? { cardholder_name: body.card.cardholder_name } : {}),
        fingerprint: `sq-1-${info.brand}-${info.last4}`,
        customer_id: customerId,
        merchant_id: merchantId,
        ...(body.card.reference_id ? { reference_id: body.card.reference_id } : {}),
        enabled: true,
        card_type: 'CREDIT',
        prepaid_type: 'NOT_PREPAID',
        bin: '411111',
        created_at: now(),
        version: 1,
        _outcome: info.outcome,
      };
      cards.set(card.id, card);
      return { status: 200, body: { card: publicCard(card) } };
    });
  }

  function createPayment(body: Json) {
    return idempotent('CreatePayment', body, () => {
      const sourceId = requireString(body, 'source_id');
      const amountMoney = requireMoney(body, 'amount_money');
      const location = body.location_id ?? locationId;
      if (location !== locationId) throw invalid('INVALID_LOCATION', `Location \`${location}\` is not valid.`, 'location_id');
      const autocomplete = body.autocomplete ?? true;
      if (typeof autocomplete !== 'boolean') throw invalid('EXPECTED_BOOLEAN', 'Expected a boolean value', 'autocomplete');
      let delaySeconds = 7 * 86400;
      if (body.delay_duration !== undefined) {
        const seconds = typeof body.delay_duration === 'string' ? durationSeconds(body.delay_duration) : null;
        if (seconds === null) throw invalid('INVALID_VALUE', 'Invalid ISO 8601 duration.', 'delay_duration');
        if (seconds < 60 || seconds > 7 * 86400) {
          throw invalid('INVALID_VALUE', 'delay_duration must be between 1 minute and 7 days for card-not-present payments.', 'delay_duration');
        }
        delaySeconds = seconds;
      }

      let info: TestNonceInfo;
      let cardId: string | null = null;
      const customerId: string | undefined = body.customer_id ?? undefined;
      if (sourceId.startsWith('ccof:')) {
        const card = cards.get(sourceId);
        if (!card) throw notFound(`Card with ID \`${sourceId}\` not found.`);
        if (!customerId) {
          throw invalid('MISSING_REQUIRED_PARAMETER', 'customer_id is required when the source is a card on file.', 'customer_id');
        }
        if (card.customer_id !== customerId) throw invalid('CARD_MISMATCH', 'The card does not belong to this customer.', 'customer_id');
        info = { outcome: card._outcome, brand: card.card_brand, last4: card.last_4, expMonth: card.exp_month, expYear: card.exp_year };
        cardId = sourceId;
      } else {
        const parsed = parseTestNonce(sourceId);
        if (!parsed) throw invalid('INVALID_CARD_DATA', 'Invalid card data.', 'source_id');
        info = parsed;
      }

      const referenceId = body.reference_id === undefined || body.reference_id === null ? undefined : requireString(body, 'reference_id', 40);
      const rule = TEST_OUTCOMES[info.outcome];
      const id = squareId();
      const created = now();
      const status = rule.code ? 'FAILED' : autocomplete ? 'COMPLETED' : 'APPROVED';
      const payment: Json = {
        id,
        created_at: created,
        updated_at: created,
        amount_money: { ...amountMoney },
        total_money: { ...amountMoney },
        approved_money: rule.code ? { amount: 0, currency: 'USD' } : { ...amountMoney },
        status,
        ...(autocomplete
          ? {}
          : {
              delay_duration: body.delay_duration ?? 'P7D',
              delay_action: body.delay_action ?? 'CANCEL',
              delayed_until: new Date(Date.now() + delaySeconds * 1000).toISOString(),
            }),
        source_type: 'CARD',
        card_details: cardDetails(info, cardId, rule.code ? 'FAILED' : autocomplete ? 'CAPTURED' : 'AUTHORIZED', cardId !== null),
        location_id: location,
        ...(referenceId ? { reference_id: referenceId } : {}),
        order_id: squareId(28),
        ...(customerId ? { customer_id: customerId } : {}),
        ...(body.reference_id ? { reference_id: body.reference_id } : {}),
        ...(body.note ? { note: body.note } : {}),
        risk_evaluation: { created_at: created, risk_level: 'NORMAL' },
        receipt_number: id.slice(0, 4),
        receipt_url: `https://squareupsandbox.com/receipt/preview/${id}`,
        application_details: { square_product: 'ECOMMERCE_API', application_id: 'sandbox-sq0idb-fake' },
        version_token: squareId(40),
      };
      payments.set(id, payment);
      if (rule.code) {
        throw new WireError(402, [{ category: 'PAYMENT_METHOD_ERROR', code: rule.code, detail: rule.detail }], {
          payment: structuredClone(payment),
        });
      }
      return { status: 200, body: { payment: structuredClone(payment) } };
    });
  }

  function findPayment(id: string): Json {
    const payment = payments.get(id);
    if (!payment) throw notFound(`Could not find payment with id: ${id}`);
    return payment;
  }

  function completePayment(id: string, body: Json) {
    const payment = findPayment(id);
    if (body?.version_token && body.version_token !== payment.version_token) {
      throw invalid('BAD_REQUEST', 'version_token does not match the current payment version.', 'version_token');
    }
    if (payment.status !== 'APPROVED') {
      throw invalid('BAD_REQUEST', `Payment ${id} is in ${payment.status} state and cannot be completed.`);
    }
    payment.status = 'COMPLETED';
    payment.card_details.status = 'CAPTURED';
    payment.card_details.card_payment_timeline.captured_at = now();
    payment.updated_at = now();
    payment.version_token = squareId(40);
    delete payment.delayed_until;
    return { status: 200, body: { payment: structuredClone(payment) } };
  }

  function cancelPayment(id: string) {
    const payment = findPayment(id);
    if (payment.status !== 'APPROVED') {
      throw invalid('BAD_REQUEST', `Payment ${id} is in ${payment.status} state and cannot be canceled.`);
    }
    payment.status = 'CANCELED';
    payment.card_details.status = 'VOIDED';
    payment.card_details.card_payment_timeline.voided_at = now();
    payment.updated_at = now();
    payment.version_token = squareId(40);
    delete payment.delayed_until;
    return { status: 200, body: { payment: structuredClone(payment) } };
  }

  function refundPayment(body: Json) {
    return idempotent('RefundPayment', body, () => {
      const paymentId = requireString(body, 'payment_id');
      const amountMoney = requireMoney(body, 'amount_money');
      const payment = findPayment(paymentId);
      if (payment.status !== 'COMPLETED') {
        throw invalid('BAD_REQUEST', `Payment ${paymentId} is in ${payment.status} state; only COMPLETED payments can be refunded.`);
      }
      const refunded = payment.refunded_money?.amount ?? 0;
      const left = payment.amount_money.amount - refunded;
      if (amountMoney.amount > left) {
        throw new WireError(400, [
          {
            category: 'REFUND_ERROR',
            code: 'REFUND_AMOUNT_INVALID',
            detail: `The requested refund amount exceeds the amount available to refund (${left}).`,
            field: 'amount_money.amount',
          },
        ]);
      }
      const created = now();
      const refund = {
        id: `${paymentId}_${squareId(40)}`,
        status: 'PENDING',
        location_id: payment.location_id,
        amount_money: { ...amountMoney },
        payment_id: paymentId,
        order_id: payment.order_id,
        ...(body.reason ? { reason: body.reason } : {}),
        created_at: created,
        updated_at: created,
        destination_type: 'CARD',
      };
      refunds.set(refund.id, refund);
      payment.refunded_money = { amount: refunded + amountMoney.amount, currency: 'USD' };
      payment.refund_ids = [...(payment.refund_ids ?? []), refund.id];
      payment.updated_at = created;
      return { status: 200, body: { refund: structuredClone(refund) } };
    });
  }

  /** ListPayments: created_at in [begin_time, end_time), ASC or DESC, pages of `limit` with a cursor. */
  function listPayments(query: URLSearchParams) {
    const time = (name: string): number | null => {
      const value = query.get(name);
      if (value === null) return null;
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) throw invalid('INVALID_TIME', `Invalid ${name}.`, name);
      return ms;
    };
    const begin = time('begin_time') ?? Date.now() - 365 * 86400_000;
    const end = time('end_time') ?? Number.POSITIVE_INFINITY;
    const order = (query.get('sort_order') ?? 'DESC').toUpperCase();
    if (order !== 'ASC' && order !== 'DESC') throw invalid('INVALID_SORT_ORDER', 'sort_order must be ASC or DESC.', 'sort_order');
    const location = query.get('location_id');
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 100) || 100));
    const offset = Number(query.get('cursor') ?? 0) || 0;
    const all = [...payments.values()]
      .map((p, index) => ({ p, index }))
      .filter(({ p }) => {
        const at = Date.parse(p.created_at);
        return at >= begin && at < end && (!location || p.location_id === location);
      })
      .sort((a, b) => (order === 'ASC' ? a.index - b.index : b.index - a.index))
      .map(({ p }) => structuredClone(p));
    const page = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? String(offset + limit) : undefined;
    return { status: 200, body: { ...(page.length ? { payments: page } : {}), ...(next ? { cursor: next } : {}) } };
  }

  function route(method: string, path: string, body: Json, query: URLSearchParams = new URLSearchParams()): { status: number; body: Json } {
    if (method === 'POST' && path === '/v2/customers') return createCustomer(body);
    if (method === 'POST' && path === '/v2/cards') return createCard(body);
    if (method === 'POST' && path === '/v2/payments') return createPayment(body);
    if (method === 'POST' && path === '/v2/refunds') return refundPayment(body);
    const action = /^\/v2\/payments\/([^/]+)\/(complete|cancel)$/.exec(path);
    if (method === 'POST' && action) {
      const id = decodeURIComponent(action[1]!);
      return action[2] === 'complete' ? completePayment(id, body) : cancelPayment(id);
    }
    if (method === 'GET' && path === '/v2/payments') return listPayments(query);
    const get = /^\/v2\/payments\/([^/]+)$/.exec(path);
    if (method === 'GET' && get) {
      return { status: 200, body: { payment: structuredClone(findPayment(decodeURIComponent(get[1]!))) } };
    }
    throw notFound(`API endpoint for URL path \`${path}\` and HTTP method \`${method}\` is not found.`);
  }

  function handle(request: Request, rawBody: string, headers: Record<string, string>, path: string, query: URLSearchParams): { status: number; body: Json } {
    const authorization = headers.authorization ?? '';
    if (authorization !== `Bearer ${token}`) {
      return {
        status: 401,
        body: {
          errors: [{ category: 'AUTHENTICATION_ERROR', code: 'UNAUTHORIZED', detail: 'This request could not be authorized.' }],
        },
      };
    }
    let body: Json = null;
    // The SDK sends CancelPayment as a POST without a body (and so without a Content-Type).
    if (request.method === 'POST' && rawBody === '') body = {};
    else if (request.method === 'POST') {
      if (!(headers['content-type'] ?? '').includes('application/json')) {
        throw invalid('INVALID_CONTENT_TYPE', 'Content-Type must be application/json.');
      }
      try {
        body = rawBody ? JSON.parse(rawBody) : {};
      } catch {
        throw invalid('BAD_REQUEST', 'Invalid JSON body.');
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('EXPECTED_JSON_BODY', 'Expected a JSON object body.');
    }
    return route(request.method, path, body, query);
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url);
      const rawBody = request.method === 'GET' ? '' : await request.text();
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      let parsed: Json = null;
      try {
        parsed = rawBody ? JSON.parse(rawBody) : null;
      } catch {
        parsed = null;
      }
      const record: RecordedRequest = { method: request.method, path: url.pathname, query: url.searchParams, headers, body: parsed, rawBody, status: 0 };
      requests.push(record);
      notify('arrived');

      const fault = takeFault(record);
      const before = delayFor(record, 'before');
      if (before > 0) await Bun.sleep(before);
      let answer: { status: number; body: Json } | null = null;
      if (!fault || fault.afterProcessing) {
        try {
          answer = handle(request, rawBody, headers, url.pathname, url.searchParams);
        } catch (error) {
          if (!(error instanceof WireError)) throw error;
          answer = { status: error.status, body: { errors: error.errors, ...error.extra } };
        }
        processed.push(record);
        notify('processed');
      }
      const after = delayFor(record, 'after');
      if (after > 0) await Bun.sleep(after);
      if (fault?.hang) {
        await new Promise<void>((resolve) => hanging.push(resolve));
        record.status = -1;
        return new Response(null, { status: 503 });
      }
      if (fault?.drop) {
        record.status = -1;
        // An erroring body makes Bun reset the connection: the client gets no HTTP answer.
        return new Response(new ReadableStream({ pull: (c) => c.error(new DOMException('dropped by the fake', 'AbortError')) }), { status: 200 });
      }
      if (fault) answer = faultAnswer(fault);
      record.status = answer!.status;
      return new Response(JSON.stringify(answer!.body), {
        status: answer!.status,
        headers: { 'content-type': 'application/json' },
      });
    },
  });

  function faultAnswer(fault: Fault): { status: number; body: Json } {
    const status = fault.status ?? 500;
    return {
      status,
      body: {
        errors: [
          {
            category: status === 429 ? 'RATE_LIMIT_ERROR' : 'API_ERROR',
            code: status === 429 ? 'RATE_LIMITED' : status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
            detail: 'Injected fault.',
          },
        ],
      },
    };
  }

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    payments: () => [...payments.values()].map((p) => structuredClone(p)),
    customers: () => [...customers.values()].map((c) => structuredClone(c)),
    cards: () => [...cards.values()].map(publicCard),
    refunds: () => [...refunds.values()].map((r) => structuredClone(r)),
    failNext(fault: Fault = {}, match?: RequestMatch) {
      faults.push({ fault, ...(match ? { match } : {}) });
    },
    setLatency(ms: number, options: RequestMatch & { phase?: 'before' | 'after' } = {}) {
      const { phase = 'before', ...match } = options;
      latencies.push({ ms, match, phase });
    },
    clearLatency() {
      latencies.length = 0;
    },
    waitForRequest: (match, options) => waitFor('arrived', match, options),
    waitForProcessed: (match, options) => waitFor('processed', match, options),
    reset() {
      faults.length = 0;
      latencies.length = 0;
    },
    stop() {
      for (const release of hanging.splice(0)) release();
      server.stop(true);
    },
  };
}
