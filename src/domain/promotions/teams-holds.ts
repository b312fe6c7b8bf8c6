import { and, eq } from 'drizzle-orm';
import { teamMembers, teams, users } from '../../db/schema.ts';
import { formatCents } from '../../shared/pricing.ts';
import { asPaymentFailure, type PaymentFailure, paymentUnderKey } from '../payments/gateway.ts';
import type { CardGate } from '../payments/card-attempts.ts';
import { confirmPayment, markHolds, paymentRow, refusePayment, settleFromGateway } from '../payments/engine.ts';
import type { Purpose } from '../payments/purposes.ts';
import { captureTeam, finishTeam } from './teams-fill.ts';
import { tellTeamHoldFailed, tellTeamStarted } from './teams-messages.ts';
import { type ClaimedPlace, moveTeam, releasePlace, teamById, toldOf } from './teams-places.ts';
import type { TeamDeps } from './teams-rules.ts';

/*
 * A member's hold, on the money engine (payments/engine.ts): the place is claimed with its
 * 'authorizing' row (teams-places.ts), the gateway authorizes (autocomplete off, with a delay),
 * then the engine confirms or refuses the row and the team purpose below says what that means,
 * in the same transaction. Whoever learns the outcome (this request, the reconciler, the admin's
 * Check or Mark failed under Needs attention) runs the same handlers.
 *
 * A starter's hold opens the team; refused, the team is cancelled and its unit comes back, so the
 * starter can start again. A joiner's hold fills it: in the same transaction both holds are marked
 * 'capturing' and the team 'capturing', so whatever happens next (a crash, a lost answer) ends
 * with both captured by the job or the reconciler (teams-fill.ts), never one. A capture that gives
 * up keeps the place and its unit: the admin's Retry finishes the purchase (each member's order),
 * or Mark failed releases that hold.
 */

export type HoldEnd = 'open' | 'capturing' | 'released' | 'failed' | 'unknown' | 'gone';

/** What the request that asked for the hold tells the shopper, from where its row ended. */
function endOf(deps: TeamDeps, paymentRowId: number): HoldEnd {
  const status = paymentRow(deps.db, paymentRowId)?.status;
  if (status === undefined) return 'gone';
  if (status === 'authorizing') return 'unknown';
  if (status === 'failed') return 'failed';
  if (status === 'voiding' || status === 'voided') return 'released';
  return status === 'authorized' ? 'open' : 'capturing';
}

/** Asks the gateway for the member's hold, then ends it; a failure the shopper should read is returned. */
export async function holdPlace(
  deps: TeamDeps,
  claimed: ClaimedPlace,
  source: { sourceId: string; customerId: string | null },
  note: string,
  gate: CardGate,
): Promise<{ end: HoldEnd; failure: PaymentFailure | null }> {
  const amountCents = paymentRow(deps.db, claimed.paymentRowId)!.amountCents;
  try {
    const held = await gate.call(() => deps.gateway.authorize({ ...source, amountCents, idempotencyKey: claimed.key, note }));
    if (held.status === 'APPROVED') await confirmPayment(deps, claimed.paymentRowId, held);
    return { end: endOf(deps, claimed.paymentRowId), failure: null };
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (!failure.uncertain) await refusePayment(deps, claimed.paymentRowId, failure);
    else {
      const found = await paymentUnderKey(deps.gateway, claimed.key, claimed.createdAt);
      const row = paymentRow(deps.db, claimed.paymentRowId);
      if (row && found) await settleFromGateway(deps, row, found);
    }
    return { end: endOf(deps, claimed.paymentRowId), failure };
  }
}

function memberOf(tx: Parameters<Purpose['onConfirmed']>[0], paymentRowId: number) {
  const member = tx.select().from(teamMembers).where(eq(teamMembers.paymentId, paymentRowId)).get();
  const team = member ? teamById(tx, member.teamId) : undefined;
  return member && team ? { member, team } : undefined;
}

export const teamHoldPurpose: Purpose = {
  kind: 'team_authorization',
  /** The hold went through: a starter opens the team, a joiner fills it (both holds to capture). */
  onConfirmed(tx, deps, row) {
    const { clock } = deps;
    const found = memberOf(tx, row.id);
    if (!found) return { release: true };
    const { member, team } = found;
    tx.update(teamMembers).set({ status: 'held', updatedAt: clock.now() }).where(eq(teamMembers.id, member.id)).run();
    if (member.role === 'starter' && moveTeam(tx, clock, team.id, ['starting'], { status: 'open' })) {
      tellTeamStarted(tx, clock, member.userId, toldOf(tx, team), team.expiresAt);
      return undefined;
    }
    if (member.role === 'joiner' && moveTeam(tx, clock, team.id, ['joining'], { status: 'capturing' })) {
      const holds = tx
        .select({ id: teamMembers.paymentId })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.status, 'held')))
        .all()
        .flatMap((held) => (held.id === null ? [] : [held.id]));
      markHolds(tx, deps, holds, 'capturing');
      return { after: (after) => captureTeam(after, team.id) };
    }
    // The team moved on while this hold was asked for (an admin, a crash long ago): let it go.
    releasePlace(tx, clock, team, { ...member, status: 'held' });
    return undefined;
  },
  /** The hold was refused: the place and its unit are given back; a starter's team is cancelled, a joiner's reopens. */
  onRefused(tx, { clock }, row) {
    const found = memberOf(tx, row.id);
    if (!found) return undefined;
    const { member, team } = found;
    releasePlace(tx, clock, team, member);
    if (member.role === 'starter') moveTeam(tx, clock, team.id, ['starting'], { status: 'cancelled', endedAt: clock.now() });
    else moveTeam(tx, clock, team.id, ['joining'], { status: 'open' });
    tellTeamHoldFailed(tx, clock, member.userId, toldOf(tx, team), row.id);
    return undefined;
  },
  // Each capture or release of a full team's hold may be its last: the team is finished once all have ended.
  onCaptured: (tx, _deps, row) => finishAfter(tx, row.id),
  onVoided: (tx, _deps, row) => finishAfter(tx, row.id),
  // Nothing is released: the place and its unit wait for the admin's Retry (or Mark failed).
  onCaptureGaveUp: () => undefined,
  describe(db, row) {
    const member = db
      .select({ role: teamMembers.role, code: teams.code, username: users.username })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(eq(teamMembers.paymentId, row.id))
      .get();
    const who = member ? `@${member.username}` : `user #${row.userId}`;
    const what = `Team buy hold of ${who}${member ? ` (${member.role}, team ${member.code})` : ''} for ${formatCents(row.amountCents)}`;
    if (row.status === 'capture_failed')
      return {
        who: member?.username,
        what,
        todo: 'Their place and unit are kept. Retry the capture to finish the purchase (each member gets their order), or mark it failed to release this hold.',
      };
    if (row.status === 'void_failed') return { who: member?.username, what, todo: 'Retry the release, or release it in Square and mark it as dealt with.' };
    return {
      who: member?.username,
      what,
      todo: 'Check it with Square; mark it failed only when Square shows no hold: the place is given back (a starter’s team is cancelled).',
    };
  },
  // A failed capture may have paid for a place: it is never just dismissed. Mark failed releases it.
  actions: (row, offered) => offered.filter((action) => action !== 'mark_paid' && !(action === 'dismiss' && row.status === 'capture_failed')),
};

function finishAfter(tx: Parameters<Purpose['onConfirmed']>[0], paymentRowId: number) {
  const teamId = tx.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.paymentId, paymentRowId)).get()?.teamId;
  return teamId === undefined ? undefined : { after: (deps: TeamDeps) => void finishTeam(deps, teamId) };
}

/** The team's status, as the request that made a hold reads it for its answer. */
export function teamStatusOf(deps: TeamDeps, teamId: number) {
  return deps.db.select({ status: teams.status }).from(teams).where(eq(teams.id, teamId)).get()?.status;
}
