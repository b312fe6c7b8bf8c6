import type { Db } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { minutesText, RateLimiter } from '../operations/rate-limit.ts';

/*
 * The card-testing limit (docs/decisions.md, "Card attempts"): every call that puts a card in
 * front of the gateway (saving a card, a charge, a $1 hold) takes a slot first, per user and
 * per client address, in one IMMEDIATE transaction, so a burst sent at once, to one process or
 * to several, is cut at the limit before the gateway sees it. The slot is kept when the gateway
 * refused the card (a decline, invalid card data, any 4xx) or could not say; it is given back
 * when the card went through or the gateway was never asked, so honest shoppers are not locked.
 */

/** Refused card attempts one user may make in the window. */
export const CARD_ATTEMPTS_PER_USER = 5;
/** ... and one address, whoever is signed in there: new accounts give a card tester no fresh tries. */
export const CARD_ATTEMPTS_PER_ADDRESS = 10;
export const CARD_ATTEMPT_WINDOW_MS = 15 * 60_000;

export interface CardAttemptDeps {
  db: Db;
  clock: Clock;
}

/** Who is trying a card: the signed-in user and the client's address (src/http/client-address.ts). */
export interface CardClient {
  userId: number;
  address: string;
}

/** The way to the gateway for a card call: what goes through it decides whether the slot is kept. */
export interface CardGate {
  call<T>(request: () => Promise<T>): Promise<T>;
}

export function tooManyCardAttempts(waitMs: number): DomainError {
  return new DomainError(429, `Too many card attempts. Please try again in ${minutesText(waitMs)}.`, undefined, { code: 'CARD_ATTEMPTS' });
}

/** Always on: RATE_LIMIT=off is for load tests of sign-in, never for card testing. */
function limitersOf({ db, clock }: CardAttemptDeps) {
  return {
    byUser: new RateLimiter(db, 'card-attempt-user', CARD_ATTEMPTS_PER_USER, CARD_ATTEMPT_WINDOW_MS, clock),
    byAddress: new RateLimiter(db, 'card-attempt-address', CARD_ATTEMPTS_PER_ADDRESS, CARD_ATTEMPT_WINDOW_MS, clock),
  };
}

const userKey = (client: CardClient) => String(client.userId);

/** Takes a slot for the user and the address together, or throws 429 having counted nothing. */
export function takeCardAttempt(deps: CardAttemptDeps, client: CardClient): void {
  const { byUser, byAddress } = limitersOf(deps);
  const wait = deps.db.transaction(() => {
    const wait = Math.max(byUser.retryAfter(userKey(client)), byAddress.retryAfter(client.address));
    if (wait > 0) return wait;
    byUser.record(userKey(client));
    byAddress.record(client.address);
    return 0;
  });
  if (wait > 0) throw tooManyCardAttempts(wait);
}

/** Gives a slot back: the card went through, or the gateway was never asked. */
export function giveBackCardAttempt(deps: CardAttemptDeps, client: CardClient): void {
  const { byUser, byAddress } = limitersOf(deps);
  deps.db.transaction(() => {
    byUser.forgetLatest(userKey(client));
    byAddress.forgetLatest(client.address);
  });
}

/**
 * Runs `work` holding a card slot (429 before anything is written when none is free). `work`
 * makes its gateway call through the gate; the slot is kept only when that call failed and
 * the work failed with it (a refusal, or an outcome still unknown).
 */
export async function withCardAttempt<T>(deps: CardAttemptDeps, client: CardClient, work: (gate: CardGate) => Promise<T>): Promise<T> {
  takeCardAttempt(deps, client);
  let refused = false;
  const gate: CardGate = {
    async call(request) {
      try {
        return await request();
      } catch (error) {
        refused = true;
        throw error;
      }
    },
  };
  let keep = false;
  try {
    return await work(gate);
  } catch (error) {
    keep = refused;
    throw error;
  } finally {
    if (!keep) giveBackCardAttempt(deps, client);
  }
}
