import { and, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { REVIEW_ACTIONS } from '../../shared/schemas/admin.ts';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { orders, payments, plays, users } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { centsToDollars } from '../../shared/money.ts';
import { paymentRow, refusePayment, settleFromGateway } from './engine.ts';
import { asPaymentFailure, type GatewayPayment } from './gateway.ts';
import { moveHolds } from './holds.ts';
import { GATEWAY_MISMATCH, mismatchOf } from './matching.ts';
import { type PaymentDeps, type PaymentRow, purposeOf } from './purposes.ts';
import { sendRefund } from './refunds.ts';
import { NOT_TAKEN_AFTER_MS } from './states.ts';
import { markPaid, type MarkPaidInput } from './payment-mark-paid.ts';

/*
 * What an admin sees and settles on the Orders tab (issue 9, item 8): every payment the
 * reconciler could not finish by itself, with what the gateway says about it, and the few
 * actions that are safe: ask again, mark a charge paid after the gateway confirms it (its own
 * payment: the reference is the order's key, unless the admin gives a reason, kept and logged),
 * mark it failed when the gateway has no such payment, retry a capture or void, or dismiss a
 * terminal problem once it was dealt with outside the store. Every action works on any kind of
 * row: what the row means (its words, which actions it allows, what follows) is its purpose's
 * (purposes.ts), so a new way to buy changes nothing here.
 */

export const reviewActions = REVIEW_ACTIONS;
export type ReviewAction = (typeof reviewActions)[number];

export type AttentionProblem =
  | 'unconfirmed_charge'
  | 'unconfirmed_hold'
  | 'unconfirmed_refund'
  /** The gateway's payment under our key did not match the row (amount, currency, reference, already used). */
  | 'gateway_mismatch'
  /** A payment whose gateway payment also paid an earlier row (unlinked by migration 0009). */
  | 'shared_payment'
  | 'capture_failed'
  | 'void_failed'
  | 'expired'
  | 'refund_refused';

export interface AttentionItem {
  paymentId: number;
  kind: string;
  status: string;
  problem: AttentionProblem;
  /** Dollars. */
  amount: number;
  orderId: number | null;
  playId: number | null;
  gameId: number | null;
  username: string;
  /** What the money is for, in the purpose's words. */
  what: string;
  /** What the admin should do about it. */
  todo: string;
  gatewayPaymentId: string | null;
  /** Our key: the reference id the gateway's payment for this row carries. */
  reference: string;
  attempts: number;
  errorCode: string | null;
  errorDetail: string | null;
  reviewNote: string | null;
  createdAt: number;
  updatedAt: number;
  actions: ReviewAction[];
}

const problemActions: Record<AttentionProblem, ReviewAction[]> = {
  unconfirmed_charge: ['check', 'mark_paid', 'mark_failed'],
  unconfirmed_hold: ['check', 'mark_failed'],
  unconfirmed_refund: ['check'],
  gateway_mismatch: ['check', 'mark_paid', 'mark_failed'],
  shared_payment: ['dismiss'],
  /** Mark failed voids the hold (only when the gateway shows it was not captured); a purpose may forbid dismissing. */
  capture_failed: ['retry', 'mark_failed', 'dismiss'],
  void_failed: ['retry', 'dismiss'],
  expired: ['dismiss'],
  refund_refused: ['dismiss'],
};

function problemOf(row: typeof payments.$inferSelect, orderStatus: string | null): AttentionProblem | null {
  if ((row.status === 'charging' || row.status === 'authorizing') && row.errorCode === GATEWAY_MISMATCH) return 'gateway_mismatch';
  if (row.reviewNote !== null && row.gatewayPaymentId === null && row.reviewedAt === null && row.kind !== 'refund') return 'shared_payment';
  switch (row.status) {
    case 'charging':
      return 'unconfirmed_charge';
    case 'authorizing':
      return 'unconfirmed_hold';
    case 'refunding':
      return 'unconfirmed_refund';
    case 'capture_failed':
    case 'void_failed':
    case 'expired':
      return row.status;
    case 'failed':
      return row.kind === 'refund' && orderStatus === 'processing' ? 'refund_refused' : null;
    default:
      return null;
  }
}

/** What the row's purpose allows; by default no Mark paid (a charge's purpose opts in) and no void of a failed capture. */
function actionsFor(row: PaymentRow, problem: AttentionProblem): ReviewAction[] {
  const offered = problemActions[problem];
  const purpose = purposeOf(row.kind);
  if (purpose.actions) return purpose.actions(row, offered);
  return offered.filter((action) => action !== 'mark_paid' && !(action === 'mark_failed' && problem === 'capture_failed'));
}

/**
 * Payments that need a person, newest first: in-between rows older than NOT_TAKEN_AFTER_MS
 * (the reconciler could not resolve them: the gateway is down or does not know), a refund still
 * unconfirmed after a retry, and unreviewed terminal problems.
 */
export function paymentsNeedingAttention(db: Queryable, now: number, limit = 100): AttentionItem[] {
  const rows = attentionQuery(db).all({ stale: now - NOT_TAKEN_AFTER_MS, limit });
  const items: AttentionItem[] = [];
  for (const { payment, username, orderStatus, gameId } of rows) {
    const problem = problemOf(payment, orderStatus);
    if (!problem) continue;
    const described = purposeOf(payment.kind).describe(db, payment);
    items.push({
      paymentId: payment.id,
      kind: payment.kind,
      status: payment.status,
      problem,
      amount: centsToDollars(payment.amountCents),
      orderId: payment.orderId,
      playId: payment.playId,
      gameId,
      username: described.who ?? username,
      what: described.what,
      todo: described.todo,
      gatewayPaymentId: payment.gatewayPaymentId,
      reference: payment.idempotencyKey,
      attempts: payment.attempts,
      errorCode: payment.errorCode,
      errorDetail: payment.errorDetail,
      createdAt: payment.createdAt,
      updatedAt: payment.updatedAt,
      reviewNote: payment.reviewNote,
      actions: actionsFor(payment, problem),
    });
  }
  return items;
}

// The admin's payments tab and the reconciler's report read it: built once (db/prepared.ts). The
// time is bound as `cast(? as integer)`: compared bare in a join, each new value would make
// SQLite compile the statement again (see accounts/sessions.ts).
const attentionQuery = preparedOnce((db) => {
  const stale = sql`cast(${sql.placeholder('stale')} as integer)`;
  return db
    .select({ payment: payments, username: users.username, orderStatus: orders.status, gameId: plays.gameId })
    .from(payments)
    .innerJoin(users, eq(payments.userId, users.id))
    .leftJoin(orders, eq(payments.orderId, orders.id))
    .leftJoin(plays, eq(payments.playId, plays.id))
    .where(
      or(
        and(inArray(payments.status, ['charging', 'authorizing']), or(lte(payments.updatedAt, stale), eq(payments.errorCode, GATEWAY_MISMATCH))),
        and(isNotNull(payments.reviewNote), isNull(payments.gatewayPaymentId), isNull(payments.reviewedAt)),
        and(eq(payments.status, 'refunding'), or(lte(payments.updatedAt, stale), eq(payments.attempts, 1))),
        and(inArray(payments.status, ['capture_failed', 'void_failed', 'expired']), isNull(payments.reviewedAt)),
        and(eq(payments.kind, 'refund'), eq(payments.status, 'failed'), isNull(payments.reviewedAt)),
      ),
    )
    .orderBy(desc(payments.updatedAt), desc(payments.id))
    .limit(sql.placeholder('limit'))
    .prepare();
});

/** What the gateway says about a payment row, in a few words for the admin. */
export interface GatewayView {
  /** The gateway's status (APPROVED, COMPLETED, CANCELED, FAILED), 'NOT_FOUND', or 'UNREACHABLE'. */
  status: string;
  gatewayPaymentId: string | null;
  /** Dollars, when the gateway has the payment. */
  amount: number | null;
  /** The payment's reference id at the gateway (our key when it is ours). */
  referenceId?: string | null;
}

async function lookUp(deps: PaymentDeps, row: PaymentRow): Promise<GatewayPayment | null | 'unreachable'> {
  try {
    // A refund is looked up by the payment it refunds.
    const refunds = purposeOf(row.kind).refundOf;
    if (refunds) {
      const target = refunds(deps.db, row).paymentId;
      return target ? await deps.gateway.getPayment(target) : null;
    }
    if (row.gatewayPaymentId) return await deps.gateway.getPayment(row.gatewayPaymentId);
    const found = await deps.gateway.findPayments([row.idempotencyKey], row.createdAt);
    return found.get(row.idempotencyKey) ?? null;
  } catch (error) {
    const failure = asPaymentFailure(error);
    return failure.code === 'NOT_FOUND' ? null : 'unreachable';
  }
}

/** Asks the gateway about each item (at most `timeoutMs` for all of them). */
export async function gatewayViews(deps: PaymentDeps, items: AttentionItem[], timeoutMs = 3000): Promise<Map<number, GatewayView>> {
  const views = new Map<number, GatewayView>();
  const work = Promise.all(
    items.map(async (item) => {
      const row = deps.db.select().from(payments).where(eq(payments.id, item.paymentId)).get();
      if (!row) return;
      const found = await lookUp(deps, row);
      views.set(
        item.paymentId,
        found === 'unreachable'
          ? { status: 'UNREACHABLE', gatewayPaymentId: null, amount: null }
          : found
            ? { status: found.status, gatewayPaymentId: found.id, amount: centsToDollars(found.amountCents), referenceId: found.referenceId ?? null }
            : { status: 'NOT_FOUND', gatewayPaymentId: null, amount: null },
      );
    }),
  );
  await Promise.race([work, Bun.sleep(timeoutMs)]);
  for (const item of items) if (!views.has(item.paymentId)) views.set(item.paymentId, { status: 'UNREACHABLE', gatewayPaymentId: null, amount: null });
  return views;
}

function actionError(action: string): DomainError {
  const message = 'That action does not apply to this payment.';
  return new DomainError(409, message, { action: message }, { action });
}

export function isReviewAction(value: unknown): value is ReviewAction {
  return typeof value === 'string' && (reviewActions as readonly string[]).includes(value);
}

const UNREACHABLE = 'The payment gateway cannot be reached right now. Try again in a minute.';

/** The admin's action on one payment; answers with a sentence for the admin's toast. */
export async function resolvePayment(deps: PaymentDeps, paymentId: number, action: unknown, input: MarkPaidInput = {}): Promise<string> {
  if (!isReviewAction(action)) {
    const message = 'Choose check, mark_paid, mark_failed, retry or dismiss.';
    throw new DomainError(400, message, { action: message });
  }
  const { db, clock } = deps;
  const row = Number.isSafeInteger(paymentId) ? paymentRow(db, paymentId) : undefined;
  if (!row) throw new DomainError(404, 'Payment not found.');
  const orderStatus = row.orderId ? (db.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId)).get()?.status ?? null) : null;
  const problem = problemOf(row, orderStatus);
  if (!problem || !actionsFor(row, problem).includes(action)) throw actionError(action);
  const { what } = purposeOf(row.kind).describe(db, row);

  if (action === 'dismiss') {
    db.update(payments)
      .set({ reviewedAt: clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
      .run();
    return `Payment #${row.id} marked as dealt with.`;
  }
  if (action === 'retry') return retry(deps, row);
  if (action === 'check') {
    if (row.status === 'refunding') {
      const sent = await sendRefund(deps, row);
      return sent.outcome === 'refunded' ? `${what} went through.` : `The refund is still ${sent.outcome}: ${'detail' in sent ? sent.detail : ''}`;
    }
    const found = await lookUp(deps, row);
    if (found === 'unreachable') throw new DomainError(502, UNREACHABLE);
    await settleFromGateway(deps, row, found ?? undefined);
    const now = paymentRow(db, row.id)!;
    if (now.status === row.status && now.errorCode === GATEWAY_MISMATCH) return `Not marked paid. ${now.errorDetail ?? ''}`.trim();
    return now.status === row.status ? `The gateway has no final answer for payment #${row.id} yet.` : `Payment #${row.id} is now ${now.status}.`;
  }
  if (action === 'mark_paid') {
    const message = await markPaid(deps, row, input);
    if (message === null) throw actionError(action);
    return message;
  }
  return markFailed(deps, row, what);
}

/** A capture or void moved again from the start of its tries. */
async function retry(deps: PaymentDeps, row: PaymentRow): Promise<string> {
  const { db, clock } = deps;
  const to = row.status === 'capture_failed' ? 'capturing' : 'voiding';
  const moved = db
    .update(payments)
    .set({ status: to, attempts: 0, nextAttemptAt: null, reviewedAt: null, updatedAt: clock.now() })
    .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
    .returning()
    .get();
  if (!moved) throw actionError('retry');
  await moveHolds(deps, [moved]);
  return `Payment #${row.id} is now ${paymentRow(db, row.id)!.status}.`;
}

/**
 * Only when the gateway has nothing that took the money: an unconfirmed charge or hold is refused
 * (its purpose gives back what it reserved); a hold whose capture gave up is released.
 */
async function markFailed(deps: PaymentDeps, row: PaymentRow, what: string): Promise<string> {
  const found = await lookUp(deps, row);
  if (found === 'unreachable') throw new DomainError(502, UNREACHABLE);
  if (row.status === 'capture_failed') {
    if (found?.status === 'COMPLETED')
      throw new DomainError(409, `The gateway shows this payment as COMPLETED (${found.id}). Retry it to finish the purchase instead.`);
    const moved = deps.db
      .update(payments)
      .set({ status: 'voiding', attempts: 0, nextAttemptAt: null, updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, 'capture_failed')))
      .returning()
      .get();
    if (!moved) throw actionError('mark_failed');
    await moveHolds(deps, [moved]);
    return `${what}: released (payment #${row.id} is now ${paymentRow(deps.db, row.id)!.status}).`;
  }
  // A payment under our key that is not ours (another amount, a restored backup's key) took no money for this row.
  if (found && (found.status === 'COMPLETED' || found.status === 'APPROVED') && !mismatchOf(deps.db, row, found)) {
    const instead = row.status === 'charging' ? 'Mark it paid instead.' : 'Check with Square to confirm it instead.';
    throw new DomainError(409, `The gateway shows this payment as ${found.status} (${found.id}). ${instead}`);
  }
  const failure = { code: 'CANCELED_BY_ADMIN', detail: 'Marked failed by an admin after the gateway showed no payment.', declined: false };
  if (!(await refusePayment(deps, row.id, failure))) throw actionError('mark_failed');
  return row.orderId ? `Order #${row.orderId} marked as failed; its stock is back.` : `${what}: marked as failed.`;
}
