import { log } from '../../log.ts';
import type { Clock } from '../clock.ts';

/*
 * How long the money steps wait for each other (DESIGN section 5, docs/decisions.md "Money").
 *
 * Every row in an in-between state carries `nextAttemptAt`: a lease while a request or a job is
 * calling the gateway for it, then the backoff before the reconciler tries again. The
 * reconciler only touches rows whose time has come, so it never races a call in flight.
 */

/** A caller owns an in-between row this long: longer than a gateway call with its retries. */
export const GATEWAY_LEASE_MS = 30_000;
/**
 * A charge or hold the gateway still does not know this long after our last call never
 * happened: it is marked failed and what it reserved is released.
 */
export const NOT_TAKEN_AFTER_MS = 2 * 60_000;
/** Captures and voids are tried this many times, then left for an admin (capture_failed, void_failed). */
export const MAX_HOLD_ATTEMPTS = 5;
/** Refunds are retried (same key, so never twice) this many times before the admin is told. */
export const MAX_REFUND_ATTEMPTS = 8;
/** A batch of gateway calls stops after this many unknown outcomes in a row: the gateway is down. */
export const OUTAGE_AFTER_FAILURES = 3;

/** Minutes before the next try: 1, 2, 4, 8, ... capped at an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

export function leaseUntil(clock: Clock): number {
  return clock.now() + GATEWAY_LEASE_MS;
}

/** One JSON line for operators: every payment step that needs attention is logged this way. */
export function logPaymentEvent(event: string, fields: Record<string, unknown>, level: 'info' | 'warn' = 'warn'): void {
  log[level]({ component: 'payments', event, ...fields }, event);
}
