import { and, eq, inArray } from 'drizzle-orm';
import { payments, teamMembers, teams } from '../../db/schema.ts';
import { asPaymentFailure, type GatewayPayment, type PaymentFailure, paymentUnderKey } from '../payments/gateway.ts';
import type { CardGate } from '../payments/card-attempts.ts';
import { holdForReview, mismatchOf } from '../payments/matching.ts';
import { leaseUntil, NOT_TAKEN_AFTER_MS } from '../payments/states.ts';
import { moveHolds } from '../games/holds.ts';
import { captureTeam } from './teams-fill.ts';
import { tellTeamHoldFailed, tellTeamStarted } from './teams-messages.ts';
import { type ClaimedPlace, moveTeam, releasePlace, teamById, toldOf } from './teams-places.ts';
import type { TeamDeps } from './teams-rules.ts';

/*
 * A member's hold, in the play hold's steps (games/entry-payment.ts): the place is claimed with
 * its 'authorizing' row (teams-places.ts), the gateway authorizes (autocomplete off, with a
 * delay), then confirmTeamHold or rollBackTeamHold ends it, each one transaction claimed on the
 * payment row. An unknown outcome is settled from what the gateway holds under our key
 * (settleTeamHoldFromGateway), here or by the reconciler (payments/reconcile.ts).
 *
 * A starter's hold opens the team. A joiner's hold fills it: in the same transaction both holds
 * are marked 'capturing' and the team 'capturing', so whatever happens next (a crash, a lost
 * answer) ends with both captured by the job or the reconciler (teams-fill.ts), never one.
 */

type PaymentRow = typeof payments.$inferSelect;
export type HoldEnd = 'open' | 'capturing' | 'released' | 'failed' | 'unknown' | 'gone';

/** Asks the gateway for the member's hold, then ends it; a failure the shopper should read is returned. */
export async function holdPlace(
  deps: TeamDeps,
  claimed: ClaimedPlace,
  source: { sourceId: string; customerId: string | null },
  note: string,
  gate: CardGate,
): Promise<{ end: HoldEnd; failure: PaymentFailure | null }> {
  try {
    const held = await gate.call(() => deps.gateway.authorize({ ...source, amountCents: amountOf(deps, claimed), idempotencyKey: claimed.key, note }));
    if (held.status === 'APPROVED') return { end: await confirmTeamHold(deps, claimed.paymentRowId, held), failure: null };
    return { end: 'unknown', failure: null };
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (!failure.uncertain) return { end: rollBackTeamHold(deps, claimed.paymentRowId, failure) ? 'failed' : 'gone', failure };
    const found = await paymentUnderKey(deps.gateway, claimed.key, claimed.createdAt);
    const row = deps.db.select().from(payments).where(eq(payments.id, claimed.paymentRowId)).get();
    if (row && found) return { end: await settleTeamHoldFromGateway(deps, row, found), failure };
    return { end: 'unknown', failure };
  }
}

function amountOf(deps: TeamDeps, claimed: ClaimedPlace): number {
  return deps.db.select({ amount: payments.amountCents }).from(payments).where(eq(payments.id, claimed.paymentRowId)).get()!.amount;
}

/** The hold went through: a starter opens the team, a joiner fills it (both holds to capture). */
export async function confirmTeamHold(deps: TeamDeps, paymentRowId: number, held: GatewayPayment): Promise<HoldEnd> {
  const { db, clock } = deps;
  const outcome = db.transaction((tx) => {
    const now = clock.now();
    const current = tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'authorizing')))
      .get();
    if (!current) return { end: 'gone' as const };
    const mismatch = mismatchOf(tx, current, held);
    if (mismatch) return { end: 'unknown' as const, review: { current, mismatch } };
    tx.update(payments)
      .set({ status: 'authorized', gatewayPaymentId: held.id, errorCode: null, errorDetail: null, nextAttemptAt: null, updatedAt: now })
      .where(eq(payments.id, paymentRowId))
      .run();
    const member = tx.select().from(teamMembers).where(eq(teamMembers.paymentId, paymentRowId)).get();
    const team = member ? teamById(tx, member.teamId) : undefined;
    if (!member || !team) return { end: 'gone' as const };
    tx.update(teamMembers).set({ status: 'held', updatedAt: now }).where(eq(teamMembers.id, member.id)).run();
    if (member.role === 'starter' && moveTeam(tx, clock, team.id, ['starting'], { status: 'open' })) {
      tellTeamStarted(tx, clock, member.userId, toldOf(tx, team), team.expiresAt);
      return { end: 'open' as const };
    }
    if (member.role === 'joiner' && moveTeam(tx, clock, team.id, ['joining'], { status: 'capturing' })) {
      const holds = tx
        .select({ id: teamMembers.paymentId })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.status, 'held')));
      tx.update(payments)
        .set({ status: 'capturing', attempts: 0, nextAttemptAt: leaseUntil(clock), updatedAt: now })
        .where(and(eq(payments.status, 'authorized'), inArray(payments.id, holds)))
        .run();
      return { end: 'capturing' as const, teamId: team.id };
    }
    // The team moved on while this hold was asked for (an admin, a crash long ago): let it go.
    releasePlace(tx, clock, team, { ...member, status: 'held' });
    return { end: 'released' as const };
  });
  if (outcome.review) holdForReview(deps, outcome.review.current, outcome.review.mismatch);
  if (outcome.end === 'capturing' && outcome.teamId) await captureTeam(deps, outcome.teamId);
  if (outcome.end === 'released') {
    const row = db.select().from(payments).where(eq(payments.id, paymentRowId)).get();
    if (row?.status === 'voiding') await moveHolds(deps, [row]);
  }
  return outcome.end;
}

/** The hold was refused: the place and its unit are given back; a starter's team never opens, a joiner's reopens. */
export function rollBackTeamHold(deps: TeamDeps, paymentRowId: number, failure: { code: string; detail: string }): boolean {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const row = tx
      .update(payments)
      .set({ status: 'failed', errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null, updatedAt: clock.now() })
      .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'authorizing')))
      .returning()
      .get();
    if (!row) return false;
    const member = tx.select().from(teamMembers).where(eq(teamMembers.paymentId, row.id)).get();
    const team = member ? teamById(tx, member.teamId) : undefined;
    if (!member || !team) return true;
    releasePlace(tx, clock, team, member);
    if (member.role === 'starter') moveTeam(tx, clock, team.id, ['starting'], { status: 'cancelled', endedAt: clock.now() });
    else moveTeam(tx, clock, team.id, ['joining'], { status: 'open' });
    tellTeamHoldFailed(tx, clock, member.userId, toldOf(tx, team), row.id);
    return true;
  });
}

/** Ends a hold from what the gateway holds under our key, once it matches (as settleHoldFromGateway does for plays). */
export async function settleTeamHoldFromGateway(deps: TeamDeps, row: PaymentRow, found: GatewayPayment | undefined): Promise<HoldEnd> {
  const mismatch = found ? mismatchOf(deps.db, row, found) : null;
  if (mismatch) {
    holdForReview(deps, row, mismatch);
    return 'unknown';
  }
  if (found?.status === 'APPROVED' || found?.status === 'COMPLETED') return confirmTeamHold(deps, row.id, found);
  if (found?.status === 'FAILED' || found?.status === 'CANCELED') {
    rollBackTeamHold(deps, row.id, { code: 'DECLINED', detail: `The gateway answered ${found.status}.` });
    return 'failed';
  }
  if (!found && row.updatedAt <= deps.clock.now() - NOT_TAKEN_AFTER_MS) {
    rollBackTeamHold(deps, row.id, { code: 'NOT_TAKEN', detail: 'The gateway never took this hold.' });
    return 'failed';
  }
  return 'unknown';
}

/** The team's status, as the request that made a hold reads it for its answer. */
export function teamStatusOf(deps: TeamDeps, teamId: number) {
  return deps.db.select({ status: teams.status }).from(teams).where(eq(teams.id, teamId)).get()?.status;
}
