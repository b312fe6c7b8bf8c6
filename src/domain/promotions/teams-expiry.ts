import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { payments, products, teamMembers, teams } from '../../db/schema.ts';
import { markHolds } from '../payments/engine.ts';
import { moveHolds } from '../payments/holds.ts';
import { owners, release } from '../inventory/stock.ts';
import { yieldToRequests } from '../operations/slices.ts';
import { captureTeam } from './teams-fill.ts';
import { tellTeamExpired } from './teams-messages.ts';
import { type TeamDeps, teamItemLabel } from './teams-rules.ts';

/*
 * The teams job (under the jobs lease, every minute): open teams past their 24 hours expire (the
 * starter's hold voided, the unit back on the shelf, the starter told), and full teams a crash
 * or a lost answer left 'capturing' are finished (teams-fill.ts). A few teams at a time are
 * claimed in one transaction (WHERE status = 'open'), so two ticks or two processes never expire
 * one twice, and requests get a turn between those slices (operations/slices.ts).
 */

/** Teams a tick takes at most (in slices); the rest wait a minute. */
export const TEAM_BATCH = 10_000;
/**
 * Voids a tick asks the gateway for itself, one at a time; the rest stay 'voiding' (the unit is
 * already back) for the reconciler, which takes them in its own batches once their lease ends.
 */
export const VOIDS_PER_TICK = 200;

export interface TeamJobReport {
  expired: number;
  finished: number;
}

/** Teams expired in one transaction: a few milliseconds, so no request waits behind more than one. */
const EXPIRE_SLICE = 8;

/**
 * Expires a slice of due teams in one transaction, set by set (teams, members, units, holds),
 * then tells each starter; a team another tick or a joiner moved first is left out by the
 * claim (WHERE status = 'open'). Answers the teams expired and the holds to void.
 */
function expireSlice(deps: TeamDeps, ids: number[], now: number): { expired: number; voiding: number[] } {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const ended = tx
      .update(teams)
      .set({ status: 'expired', endedAt: now, updatedAt: now })
      .where(and(inArray(teams.id, ids), eq(teams.status, 'open'), lte(teams.expiresAt, now)))
      .returning()
      .all();
    if (ended.length === 0) return { expired: 0, voiding: [] };
    const released = tx
      .update(teamMembers)
      .set({ status: 'released', updatedAt: now })
      .where(
        and(
          inArray(
            teamMembers.teamId,
            ended.map((team) => team.id),
          ),
          inArray(teamMembers.status, ['holding', 'held']),
        ),
      )
      .returning({ id: teamMembers.id, teamId: teamMembers.teamId, paymentId: teamMembers.paymentId })
      .all();
    const productOf = new Map(ended.map((team) => [team.id, team.productId]));
    for (const member of released) release(tx, owners.teamMember(member.id), now);
    const voiding = released.flatMap((member) => (member.paymentId === null ? [] : [member.paymentId]));
    markHolds(tx, { clock }, voiding, 'voiding');
    const productsById = new Map(
      tx
        .select()
        .from(products)
        .where(inArray(products.id, [...new Set(productOf.values())]))
        .all()
        .map((product) => [product.id, product] as const),
    );
    for (const team of ended) {
      const told = {
        teamId: team.id,
        code: team.code,
        productId: team.productId,
        label: productsById.has(team.productId) ? teamItemLabel(tx, productsById.get(team.productId)!, team.variantId) : 'your product',
        holdCents: team.holdCents,
      };
      tellTeamExpired(tx, clock, team.starterId, told);
    }
    return { expired: ended.length, voiding };
  });
}

export async function expireDueTeams(deps: TeamDeps, now = deps.clock.now()): Promise<number> {
  const due = deps.db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.status, 'open'), lte(teams.expiresAt, now)))
    .orderBy(asc(teams.expiresAt))
    .limit(TEAM_BATCH)
    .all();
  let expired = 0;
  const voiding: number[] = [];
  for (let at = 0; at < due.length; at += EXPIRE_SLICE) {
    const slice = expireSlice(
      deps,
      due.slice(at, at + EXPIRE_SLICE).map((row) => row.id),
      now,
    );
    expired += slice.expired;
    voiding.push(...slice.voiding);
    await yieldToRequests();
  }
  await voidReleasedHolds(deps, voiding.slice(0, VOIDS_PER_TICK));
  return expired;
}

/**
 * Asks the gateway to void holds a committed transaction marked 'voiding' (released places): after
 * it, since a gateway call never runs inside one; a lost answer is the reconciler's to retry.
 */
export async function voidReleasedHolds(deps: TeamDeps, paymentIds: number[]): Promise<void> {
  let voiding = paymentIds;
  while (voiding.length) {
    const batch = voiding.slice(0, 50);
    voiding = voiding.slice(50);
    const rows = deps.db
      .select()
      .from(payments)
      .where(and(inArray(payments.id, batch), eq(payments.status, 'voiding')))
      .all();
    await moveHolds(deps, rows);
    await yieldToRequests();
  }
}

/** Full teams whose captures a crash or a lost answer interrupted. */
async function finishCapturingTeams(deps: TeamDeps, now: number): Promise<number> {
  const stuck = deps.db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.status, 'capturing'), lte(teams.updatedAt, now)))
    .limit(TEAM_BATCH)
    .all();
  let finished = 0;
  for (const { id } of stuck) {
    if ((await captureTeam(deps, id, now)) === 'filled') finished++;
  }
  return finished;
}

export async function runTeamJobs(deps: TeamDeps, now = deps.clock.now()): Promise<TeamJobReport> {
  const expired = await expireDueTeams(deps, now);
  const finished = await finishCapturingTeams(deps, now);
  return { expired, finished };
}
