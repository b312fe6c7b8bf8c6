import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Team, type TeamStatus, teamMembers, teams } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { tellTeamCancelled } from './teams-messages.ts';
import { membersOf, moveTeam, releasePlace, toldOf } from './teams-places.ts';

/*
 * Ending a team before its product or its starter's account goes (issue 34, item 4). Only an
 * 'open' team is ended: its one member's hold is authorized and nothing is asked of the gateway
 * for it. A team whose hold is being asked for ('starting', 'joining') or whose holds are being
 * captured ('capturing') has money in flight, so the delete is refused instead (the caller's
 * words); ending it under a gateway call would release a place the answer then releases again.
 */

/** Money is moving for these: a hold being asked for, or both being captured. */
export const TEAM_IN_FLIGHT: TeamStatus[] = ['starting', 'joining', 'capturing'];

export function teamsOfProduct(db: Queryable, productId: number, statuses: TeamStatus[]): Team[] {
  return db
    .select()
    .from(teams)
    .where(and(eq(teams.productId, productId), inArray(teams.status, statuses)))
    .orderBy(teams.id)
    .all();
}

/** The teams in which the user still has a place (their hold being asked for, or held). */
export function teamsWithPlaceOf(db: Queryable, userId: number, statuses: TeamStatus[]): Team[] {
  const placed = db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), inArray(teamMembers.status, ['holding', 'held'])));
  return db
    .select()
    .from(teams)
    .where(and(inArray(teams.id, placed), inArray(teams.status, statuses)))
    .orderBy(teams.id)
    .all();
}

/**
 * Cancels an open team in the caller's transaction: every place released through releasePlace
 * (the unit back, an authorized hold marked 'voiding'), each member told when `tell` is set.
 * Answers the holds to void once the transaction commits (teams-expiry.ts voidReleasedHolds), or
 * null when the team was no longer open.
 */
export function cancelOpenTeam(tx: Queryable, clock: Clock, team: Team, tell: boolean): number[] | null {
  if (!moveTeam(tx, clock, team.id, ['open'], { status: 'cancelled', endedAt: clock.now() })) return null;
  const told = toldOf(tx, team);
  const voiding: number[] = [];
  for (const member of membersOf(tx, team.id)) {
    if (!releasePlace(tx, clock, team, member)) continue;
    if (member.paymentId !== null) voiding.push(member.paymentId);
    if (tell) tellTeamCancelled(tx, clock, member.userId, told);
  }
  return voiding;
}
