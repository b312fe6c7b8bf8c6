import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { payments, teams } from '../../db/schema.ts';
import { moveHolds } from '../games/holds.ts';
import { slicer } from '../operations/slices.ts';
import { captureTeam } from './teams-fill.ts';
import { tellTeamExpired } from './teams-messages.ts';
import { membersOf, moveTeam, releasePlace, toldOf } from './teams-places.ts';
import type { TeamDeps } from './teams-rules.ts';

/*
 * The teams job (under the jobs lease, every minute): open teams past their 24 hours expire (the
 * starter's hold voided, the unit back on the shelf, the starter told), and full teams a crash
 * or a lost answer left 'capturing' are finished (teams-fill.ts). Each team is its own claimed
 * transaction (WHERE status = 'open'), so two ticks or two processes never expire one twice; the
 * loop gives requests a turn between slices (operations/slices.ts).
 */

/** Teams a tick takes at most; the rest wait a minute. */
export const TEAM_BATCH = 2000;

export interface TeamJobReport {
  expired: number;
  finished: number;
}

/** Expires one team, answering the holds to void; null when another tick (or a joiner) got there first. */
function expireTeam(deps: TeamDeps, teamId: number, now: number): number[] | null {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const team = tx.select().from(teams).where(eq(teams.id, teamId)).get();
    if (team?.status !== 'open' || team.expiresAt > now) return null;
    if (!moveTeam(tx, clock, teamId, ['open'], { status: 'expired', endedAt: now })) return null;
    const voiding: number[] = [];
    for (const member of membersOf(tx, teamId)) {
      if (releasePlace(tx, clock, team, member) && member.paymentId !== null) voiding.push(member.paymentId);
    }
    tellTeamExpired(tx, clock, team.starterId, toldOf(tx, team));
    return voiding;
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
  const step = slicer(50);
  let expired = 0;
  let voiding: number[] = [];
  for (const { id } of due) {
    const held = expireTeam(deps, id, now);
    if (held) {
      expired++;
      voiding.push(...held);
    }
    await step();
  }
  // The voids after the transactions: a gateway call never runs inside one (the reconciler retries a lost one).
  while (voiding.length) {
    const batch = voiding.slice(0, 50);
    voiding = voiding.slice(50);
    const rows = deps.db
      .select()
      .from(payments)
      .where(and(inArray(payments.id, batch), eq(payments.status, 'voiding')))
      .all();
    await moveHolds(deps, rows);
    await step();
  }
  return expired;
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
