import { ApiError, apiRequest } from './http.ts';

/*
 * One money attempt (issue 25; docs/decisions.md "Money keys in the browser"). A form that can
 * take money makes one attempt when it loads; every try of it carries the same
 * `Idempotency-Key`, so the server does the work once and answers every try with the first
 * answer (src/http/idempotency.ts). The key is made anew only after a definite answer: a success
 * (a purchase made on purpose again is a new order) or a refusal the shopper can act on (a
 * decline fixed by another card must not be answered with the stored decline forever).
 *
 * A lost answer (the connection dropped, a 5xx whose outcome is unknown) is never a reason to
 * offer Pay as if nothing happened: the attempt asks the server what became of its key first, by
 * sending the same request again, and follows an order the server names until it is paid or
 * failed. When it still cannot tell, the request is kept, and the next Pay sends it again
 * unchanged whatever the form says now, since the server can only answer for that request.
 */

/** Pauses between the checks after a lost answer: about 5 s in all before the shopper is asked to press Pay again. */
const CHECK_DELAYS_MS = [400, 1200, 3000];
/** Pauses between looks at an order whose payment is being confirmed. */
const FOLLOW_DELAYS_MS = [500, 1000, 2000, 3000, 4000];

const PAID_STATUSES = new Set(['processing', 'shipped', 'completed']);

export const CONNECTION_LOST =
  'We could not reach the store to confirm your payment. Check your connection and try again: we check first, so you will not be charged twice.';
export const STILL_CONFIRMING =
  'Your payment is still being confirmed with the card processor. You will not be charged twice; we will notify you as soon as it is confirmed.';
export const PAYMENT_NOT_TAKEN = 'Your payment did not go through. Please check your card details or use another card.';

/** The outcome of this attempt is not known yet; its key and request are kept for the next try. */
export class OutcomeUnknownError extends Error {}

/** 'Idempotency-Key' values: a UUID, from crypto.randomUUID where the page is a secure context. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * How the attempt waits between checks: a timer. Injectable only so the island tests can wait
 * less than the 5 s a shopper waits (tests/islands/money-keys.test.tsx); nothing else sets it.
 */
export const moneyPauses = { pause: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)) };

interface MoneyRequest {
  method: string;
  path: string;
  body: unknown;
}

type Outcome = 'definite' | 'lost' | 'order';

/** What an error says about the attempt: answered for good, lost on the way, or an order to follow. */
function outcomeOf(error: unknown): Outcome {
  if (!(error instanceof ApiError)) return 'lost';
  if (typeof error.data.orderId === 'number' && (error.status >= 500 || error.code === 'CHECKOUT_IN_PROGRESS')) return 'order';
  if (error.status >= 500 || error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS') return 'lost';
  return 'definite';
}

export class MoneyAttempt {
  #key = newIdempotencyKey();
  #open: MoneyRequest | null = null;
  #running: Promise<unknown> | null = null;

  get key(): string {
    return this.#key;
  }

  /** A try of this attempt got no definite answer: the next send repeats that request. */
  get unresolved(): boolean {
    return this.#open !== null;
  }

  /**
   * Sends the attempt's request (the open one, when a try's answer was lost), checking again
   * after a lost answer. A second call while one runs shares it: a double click sends once.
   */
  send<T>(method: string, path: string, body: unknown): Promise<T> {
    this.#running ??= this.#run(this.#open ?? { method, path, body }).finally(() => {
      this.#running = null;
    });
    return this.#running as Promise<T>;
  }

  /** The next send is a new attempt (a new key): the shopper chose to try anew. */
  renew(): void {
    this.#key = newIdempotencyKey();
    this.#open = null;
  }

  async #run(request: MoneyRequest): Promise<unknown> {
    this.#open = request;
    for (let check = 0; ; check++) {
      try {
        const result = await apiRequest<unknown>(request.method, request.path, request.body, { idempotencyKey: this.#key });
        this.renew();
        return result;
      } catch (error) {
        const outcome = outcomeOf(error);
        if (outcome === 'definite') {
          this.renew();
          throw error;
        }
        if (outcome === 'order') return this.#follow(Number((error as ApiError).data.orderId), (error as ApiError).message);
        const delay = CHECK_DELAYS_MS[check];
        if (delay === undefined) throw new OutcomeUnknownError(CONNECTION_LOST);
        await moneyPauses.pause(delay);
      }
    }
  }

  /** The server named the order this attempt made: its status is the answer (the order routes answer `{ id, orderId }`). */
  async #follow(orderId: number, message: string): Promise<unknown> {
    for (const delay of [0, ...FOLLOW_DELAYS_MS]) {
      await moneyPauses.pause(delay);
      let status: string;
      try {
        status = (await apiRequest<{ status: string }>('GET', `/api/orders/${orderId}`)).status;
      } catch {
        continue;
      }
      if (PAID_STATUSES.has(status)) {
        this.renew();
        return { id: orderId, orderId };
      }
      if (status !== 'pending') {
        this.renew();
        throw new ApiError(402, PAYMENT_NOT_TAKEN, {}, 'PAYMENT_FAILED', { orderId });
      }
    }
    throw new OutcomeUnknownError(message || STILL_CONFIRMING);
  }
}
