import type { Db, Queryable } from '../../db/client.ts';
import type { payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { GatewayPayment, PaymentGateway } from './gateway.ts';

/*
 * What a payment row means is not payments' business: each way to buy registers a purpose under
 * the row's `kind` (src/flows/payment-purposes.ts wires them all, above the areas), and the
 * engine (engine.ts, holds.ts, refunds.ts) calls its handlers inside the transaction that moves
 * the row. So the reconciler, the admin's Needs attention and start-up recovery work on any row
 * through this registry and a new way to buy changes none of them. An unregistered kind throws:
 * a row nobody can finish is a bug to see at once, never a row to skip.
 */

export type PaymentRow = typeof payments.$inferSelect;

/** What the engine needs; the purposes get back the same object the caller passed (the app's deps). */
export interface PaymentDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

export interface Failure {
  code: string;
  detail: string;
  declined?: boolean;
}

/** What a handler asks of the engine once its transaction commits. */
export interface Handled {
  /** An authorized hold nobody will use (its game started meanwhile): the engine voids it. */
  release?: boolean;
  /** Work after the commit (gateway calls, other rows' transactions), e.g. capture a filled team. */
  after?: (deps: PaymentDeps) => Promise<unknown> | unknown;
}

/** The admin's words for a row under Needs attention. */
export interface Described {
  /** Who pays: the shopper's name as the admin knows them (username), when the purpose knows better than the row. */
  who?: string;
  /** What the money is for: 'Card charge for order #12', 'Team buy hold of @bob (team AB12)'. */
  what: string;
  /** What to do about it, in a sentence. */
  todo: string;
}

export type ReviewAction = 'check' | 'mark_paid' | 'mark_failed' | 'retry' | 'dismiss';

type Tx = Queryable;

export interface Purpose {
  kind: string;
  /** The hold or charge went through (the row is now 'authorized' or 'captured'). */
  onConfirmed(tx: Tx, deps: PaymentDeps, row: PaymentRow, payment: GatewayPayment): Handled | undefined;
  /** The gateway refused it, or never took it (the row is now 'failed'). */
  onRefused(tx: Tx, deps: PaymentDeps, row: PaymentRow, failure: Failure): Handled | undefined;
  /** A hold was captured ('captured'). */
  onCaptured?(tx: Tx, deps: PaymentDeps, row: PaymentRow): Handled | undefined;
  /** A hold was released or lapsed ('voided' or 'expired'): no money was taken. */
  onVoided?(tx: Tx, deps: PaymentDeps, row: PaymentRow): Handled | undefined;
  /** A capture gave up ('capture_failed'): whatever it pays for must stay reserved for the admin's Retry. */
  onCaptureGaveUp?(tx: Tx, deps: PaymentDeps, row: PaymentRow): Handled | undefined;
  /** Refund rows: the gateway payment to refund and the reason Square shows. */
  refundOf?(db: Queryable, row: PaymentRow): { paymentId: string | null; reason: string };
  /** A refund row the gateway accepted (already 'refunded'). */
  onRefunded?(tx: Tx, deps: PaymentDeps, row: PaymentRow): Handled | undefined;
  /** A refund row the gateway refused (already 'failed'). */
  onRefundRefused?(tx: Tx, deps: PaymentDeps, row: PaymentRow, failure: Failure): Handled | undefined;
  /** Needs attention's words for the row. */
  describe(db: Queryable, row: PaymentRow): Described;
  /** The admin's actions this purpose allows for a problem (default: all the problem offers, less mark_paid). */
  actions?(row: PaymentRow, offered: ReviewAction[]): ReviewAction[];
  /** Runs before each reconciler pass (start-up and every minute): rows its area left to be marked. */
  sweep?(deps: PaymentDeps): void;
}

const registry = new Map<string, Purpose>();

/** Registers (or replaces, for a test) the purpose of a kind of row. */
export function registerPurpose(purpose: Purpose): void {
  registry.set(purpose.kind, purpose);
}

export function unregisterPurpose(kind: string): void {
  registry.delete(kind);
}

export function purposeOf(kind: string): Purpose {
  const purpose = registry.get(kind);
  if (!purpose)
    throw new Error(
      `No payment purpose is registered for payments of kind '${kind}': register it in src/flows/payment-purposes.ts and import that file from the entry point.`,
    );
  return purpose;
}

export function registeredPurposes(): Purpose[] {
  return [...registry.values()];
}

/** How payments tells every admin: written by an area above (accounts' notifications), wired with the purposes. */
export type AdminAlertWriter = (db: Queryable, clock: Clock, alert: { eventKey: string; message: string }) => void;

let alertWriter: AdminAlertWriter | null = null;

export function setAdminAlertWriter(writer: AdminAlertWriter): void {
  alertWriter = writer;
}

export function adminAlertWriter(): AdminAlertWriter {
  if (!alertWriter) throw new Error('No admin alert writer is wired: import src/flows/payment-purposes.ts from the entry point.');
  return alertWriter;
}
