import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { GatewayPayment } from './gateway.ts';
import { holdForReview, mismatchOf } from './matching.ts';
import { type Failure, type Handled, type PaymentDeps, type PaymentRow, purposeOf } from './purposes.ts';
import { leaseUntil, NOT_TAKEN_AFTER_MS } from './states.ts';
import { moveHolds } from './holds.ts';

/*
 * The payment row's life, once (DESIGN section 5, docs/decisions.md "One money engine"):
 *
 *   create ('charging' | 'authorizing', with a lease) -> confirm ('captured' | 'authorized')
 *                                                      -> refuse ('failed')
 *   'authorized' -> 'capturing' -> 'captured' | 'capture_failed' | 'expired'   (holds.ts)
 *   'authorized' -> 'voiding'   -> 'voided' | 'void_failed'                     (holds.ts)
 *   'refunding'  -> 'refunded' | 'failed'                                       (refunds.ts)
 *
 * Every transition is one conditional UPDATE on the status it read, and the row's purpose
 * (purposes.ts) does what the row means in the same transaction; what it needs after the commit
 * (gateway calls) runs then. A payment under our key that does not match the row stays in between
 * and goes to Needs attention (matching.ts).
 */

export type NewPayment = Pick<typeof payments.$inferInsert, 'userId' | 'kind' | 'amountCents' | 'orderId' | 'playId' | 'idempotencyKey'> & {
  status: 'charging' | 'authorizing';
};

/** Writes a charge or hold about to be asked for, under a lease the reconciler respects. Runs in the caller's transaction. */
export function createPayment(tx: Queryable, deps: PaymentDeps, values: NewPayment): PaymentRow {
  purposeOf(values.kind);
  const now = deps.clock.now();
  return insertAskedFor(tx).get({
    userId: values.userId,
    kind: values.kind,
    status: values.status,
    amountCents: values.amountCents,
    orderId: values.orderId ?? null,
    playId: values.playId ?? null,
    gateway: deps.gateway.name,
    idempotencyKey: values.idempotencyKey,
    nextAttemptAt: leaseUntil(deps.clock),
    now,
  })!;
}

/* Every card checkout, entry and team place writes one: built once (db/prepared.ts). */
const insertAskedFor = preparedOnce((db) =>
  db
    .insert(payments)
    .values({
      userId: sql.placeholder('userId'),
      kind: sql.placeholder('kind'),
      status: sql.placeholder('status'),
      amountCents: sql.placeholder('amountCents'),
      orderId: sql.placeholder('orderId'),
      playId: sql.placeholder('playId'),
      gateway: sql.placeholder('gateway'),
      idempotencyKey: sql.placeholder('idempotencyKey'),
      attempts: 1,
      nextAttemptAt: sql.placeholder('nextAttemptAt'),
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
    })
    .returning()
    .prepare(),
);

/**
 * Writes a refund about to be sent ('refunding', under a lease), against the charge it refunds:
 * on that charge's gateway, its first call still to come. Runs in the caller's transaction.
 */
export function createRefund(
  tx: Queryable,
  clock: Clock,
  values: { userId: number; orderId: number; amountCents: number; gateway: string; idempotencyKey: string },
): PaymentRow {
  const now = clock.now();
  return tx
    .insert(payments)
    .values({ ...values, kind: 'refund', status: 'refunding', nextAttemptAt: leaseUntil(clock), createdAt: now, updatedAt: now })
    .returning()
    .get();
}

/** A refund the gateway refused, asked for again under its own key (its tries counted afresh). */
export function reopenRefund(tx: Queryable, clock: Clock, rowId: number): PaymentRow {
  return tx
    .update(payments)
    .set({ status: 'refunding', errorCode: null, errorDetail: null, attempts: 0, nextAttemptAt: leaseUntil(clock), updatedAt: clock.now() })
    .where(eq(payments.id, rowId))
    .returning()
    .get()!;
}

/** A charge refunded in full: its row says so, for the order page, the books and a second refund's refusal. */
export function markChargeRefunded(tx: Queryable, clock: Clock, chargeId: number): void {
  tx.update(payments).set({ status: 'refunded', updatedAt: clock.now() }).where(eq(payments.id, chargeId)).run();
}

export function paymentRow(db: Queryable, id: number): PaymentRow | undefined {
  return paymentById(db).get({ id });
}

/* Every payment's page, poll and after-commit step reads its row: built once (db/prepared.ts). */
const paymentById = preparedOnce((db) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.id, sql.placeholder('id')))
    .prepare(),
);

/**
 * Takes over a row still in between whose caller is gone (its process died): the lease is this
 * caller's only if nobody renewed it since `row` was read, so two takers never call the gateway
 * for one row at once. False when someone else holds it now or the row moved on.
 */
export function claimPayment(db: Queryable, deps: Pick<PaymentDeps, 'clock'>, row: PaymentRow): boolean {
  const seen = row.nextAttemptAt === null ? isNull(payments.nextAttemptAt) : eq(payments.nextAttemptAt, row.nextAttemptAt);
  return (
    db
      .update(payments)
      .set({ nextAttemptAt: leaseUntil(deps.clock), updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, row.status), seen))
      .returning({ id: payments.id })
      .all().length > 0
  );
}

/** Marks authorized holds to be captured or released (with a lease). Runs in the caller's transaction. */
export function markHolds(tx: Queryable, deps: Pick<PaymentDeps, 'clock'>, ids: number[], to: 'capturing' | 'voiding'): void {
  if (ids.length === 0) return;
  tx.update(payments)
    .set({ status: to, attempts: 0, nextAttemptAt: leaseUntil(deps.clock), updatedAt: deps.clock.now() })
    .where(and(inArray(payments.id, ids), eq(payments.status, 'authorized')))
    .run();
}

/** What a handler asked for, after the commit: release the hold, then the purpose's own work. */
export async function afterCommit(deps: PaymentDeps, rowId: number, handled: Handled | undefined): Promise<void> {
  if (handled?.release) {
    const row = paymentRow(deps.db, rowId);
    if (row?.status === 'voiding') await moveHolds(deps, [row]);
  }
  if (handled?.after) await handled.after(deps);
}

/** The row while its charge or hold is still being asked for: what confirm and refuse claim. */
function askedFor(tx: Queryable, rowId: number): PaymentRow | undefined {
  return askedForRow(tx).get({ rowId });
}

/* Every confirm and refuse runs these: built once (db/prepared.ts). */
const askedForRow = preparedOnce((db) =>
  db
    .select()
    .from(payments)
    .where(and(eq(payments.id, sql.placeholder('rowId')), inArray(payments.status, ['charging', 'authorizing'])))
    .prepare(),
);
/** The confirm's write, with or without an admin's review (two shapes: the review's columns are set only with one). */
const confirmWrite = (reviewed: boolean) =>
  preparedOnce((db) =>
    db
      .update(payments)
      .set({
        status: sql`${sql.placeholder('status')}`,
        gatewayPaymentId: sql`${sql.placeholder('gatewayPaymentId')}`,
        errorCode: null,
        errorDetail: null,
        nextAttemptAt: null,
        updatedAt: sql`${sql.placeholder('now')}`,
        ...(reviewed ? { reviewNote: sql`${sql.placeholder('reviewNote')}`, reviewedAt: sql`${sql.placeholder('now')}` } : {}),
      })
      .where(and(eq(payments.id, sql.placeholder('rowId')), eq(payments.status, sql.placeholder('from'))))
      .returning()
      .prepare(),
  );
const confirmRow = confirmWrite(false);
const confirmReviewedRow = confirmWrite(true);
const refuseRow = preparedOnce((db) =>
  db
    .update(payments)
    .set({
      status: 'failed',
      errorCode: sql`${sql.placeholder('code')}`,
      errorDetail: sql`${sql.placeholder('detail')}`,
      nextAttemptAt: null,
      updatedAt: sql`${sql.placeholder('now')}`,
    })
    .where(and(eq(payments.id, sql.placeholder('rowId')), eq(payments.status, sql.placeholder('from'))))
    .returning()
    .prepare(),
);

export interface ConfirmOptions {
  /** An admin's override: a payment under another reference may pay this row (amount, currency and uniqueness still hold). */
  anyReference?: boolean;
  /** Kept on the row: who confirmed it against what, and why. */
  reviewNote?: string;
}

export type Confirmed = 'confirmed' | 'mismatch' | 'gone';

/** The charge or hold went through: the row is captured (a charge) or authorized (a hold), and its purpose says what that means. */
export async function confirmPayment(deps: PaymentDeps, rowId: number, payment: GatewayPayment, options: ConfirmOptions = {}): Promise<Confirmed> {
  const { db, clock } = deps;
  const outcome = db.transaction((tx) => {
    const current = askedFor(tx, rowId);
    if (!current) return { end: 'gone' as const };
    const purpose = purposeOf(current.kind);
    const mismatch = mismatchOf(tx, current, payment, options);
    if (mismatch) return { end: 'mismatch' as const, current, mismatch };
    const now = clock.now();
    const confirmed = {
      status: current.status === 'charging' ? 'captured' : 'authorized',
      gatewayPaymentId: payment.id,
      now,
      rowId,
      from: current.status,
    };
    const row = options.reviewNote
      ? confirmReviewedRow(tx).get({ ...confirmed, reviewNote: options.reviewNote.slice(0, 1000) })
      : confirmRow(tx).get(confirmed);
    if (!row) return { end: 'gone' as const };
    const handled = purpose.onConfirmed(tx, deps, row, payment);
    if (handled?.release) markHolds(tx, deps, [row.id], 'voiding');
    return { end: 'confirmed' as const, handled };
  });
  if (outcome.end === 'mismatch') holdForReview(deps, outcome.current, outcome.mismatch);
  if (outcome.end === 'confirmed') await afterCommit(deps, rowId, outcome.handled);
  return outcome.end;
}

/** The charge or hold was refused, or never taken: the row is failed and its purpose gives back what it reserved. */
export async function refusePayment(deps: PaymentDeps, rowId: number, failure: Failure): Promise<boolean> {
  const { db, clock } = deps;
  const outcome = db.transaction((tx) => {
    const current = askedFor(tx, rowId);
    if (!current) return null;
    const purpose = purposeOf(current.kind);
    const row = refuseRow(tx).get({ code: failure.code, detail: failure.detail.slice(0, 500), now: clock.now(), rowId, from: current.status });
    if (!row) return null;
    return { handled: purpose.onRefused(tx, deps, row, failure) };
  });
  if (!outcome) return false;
  await afterCommit(deps, rowId, outcome.handled);
  return true;
}

export type Settled = 'confirmed' | 'refused' | 'unknown';

/**
 * Ends a charge or hold from what the gateway holds under our key (the reconciler, a request whose
 * answer was lost, the admin's Check): a matching COMPLETED or APPROVED payment confirms it,
 * FAILED or CANCELED refuses it, nothing at all refuses it only NOT_TAKEN_AFTER_MS after our last
 * call (a request may still be on its way); a payment that does not match goes to Needs attention.
 */
export async function settleFromGateway(deps: PaymentDeps, row: PaymentRow, found: GatewayPayment | undefined): Promise<Settled> {
  const mismatch = found ? mismatchOf(deps.db, row, found) : null;
  if (mismatch) {
    holdForReview(deps, row, mismatch);
    return 'unknown';
  }
  // A charge is only paid once COMPLETED; a hold is taken once APPROVED (or already captured).
  const taken = found && (found.status === 'COMPLETED' || (row.status === 'authorizing' && found.status === 'APPROVED'));
  if (found && taken) return (await confirmPayment(deps, row.id, found)) === 'confirmed' ? 'confirmed' : 'unknown';
  if (found?.status === 'FAILED' || found?.status === 'CANCELED') {
    await refusePayment(deps, row.id, { code: 'DECLINED', detail: `The gateway answered ${found.status}.`, declined: true });
    return 'refused';
  }
  if (!found && row.updatedAt <= deps.clock.now() - NOT_TAKEN_AFTER_MS) {
    const what = row.status === 'charging' ? 'payment' : 'hold';
    await refusePayment(deps, row.id, { code: 'NOT_TAKEN', detail: `The gateway never took this ${what}.`, declined: false });
    return 'refused';
  }
  return 'unknown';
}
