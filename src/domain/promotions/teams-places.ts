import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { products, teamMembers, teams, type Team, type TeamMember } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { owners, release, reserve } from '../inventory/stock.ts';
import { gatewayKey } from '../payments/keys.ts';
import { createPayment, markHolds } from '../payments/engine.ts';
import { type TeamDeps, teamItemLabel } from './teams-rules.ts';
import { heldVariant, sizeLabelFor } from '../inventory/variants.ts';

/*
 * A member's place in a team and the unit it reserves. A place is claimed in one transaction:
 * the unit is taken (a conditional UPDATE: the last unit goes once), the member row and its
 * hold's payment row ('authorizing', with its gateway key and a lease) are written. A place is
 * released in the transaction that decides so (a refused hold, a team that expired): the unit
 * goes back at once, and the hold, if there was one, is marked 'voiding' for the gateway call.
 */

export interface ClaimedPlace {
  memberId: number;
  paymentRowId: number;
  key: string;
  createdAt: number;
}

function takeUnit(tx: Queryable, productId: number, variantId: number, memberId: number, now: number): void {
  const taken = reserve(tx, { productId, variantId, quantity: 1, reason: 'team_place', owner: owners.teamMember(memberId), now });
  if (taken) return;
  const product = tx.select({ productType: products.productType }).from(products).where(eq(products.id, productId)).get();
  const size = sizeLabelFor(tx, product?.productType ?? '', variantId);
  throw new DomainError(409, size ? `This product just sold out in size ${size}.` : 'This product just sold out.');
}

/** Takes the unit and writes the member and its 'authorizing' hold. Runs in the caller's transaction. */
export function claimPlace(deps: TeamDeps, tx: Queryable, team: Team, userId: number, role: 'starter' | 'joiner'): ClaimedPlace {
  const now = deps.clock.now();
  const member = tx
    .insert(teamMembers)
    .values({ teamId: team.id, userId, role, status: 'holding', createdAt: now, updatedAt: now })
    .returning({ id: teamMembers.id })
    .get();
  // The place's unit, held in the member's name (a sold-out refusal undoes the insert).
  takeUnit(tx, team.productId, heldVariant(team.variantId), member.id, now);
  // The member's row id names the hold: each place is its own hold, under its own key.
  const key = gatewayKey(deps.db, 'hold', `tm${member.id}`);
  const payment = createPayment(tx, deps, { userId, kind: 'team_authorization', status: 'authorizing', amountCents: team.holdCents, idempotencyKey: key });
  tx.update(teamMembers).set({ paymentId: payment.id }).where(eq(teamMembers.id, member.id)).run();
  return { memberId: member.id, paymentRowId: payment.id, key, createdAt: now };
}

/**
 * The member leaves: their unit goes back and an authorized hold is marked to be voided (a hold
 * still being asked for is the caller's to end). Once only: a released member is left alone.
 */
export function releasePlace(tx: Queryable, clock: Clock, _team: Pick<Team, 'productId'>, member: TeamMember): boolean {
  const now = clock.now();
  const released = tx
    .update(teamMembers)
    .set({ status: 'released', updatedAt: now })
    .where(and(eq(teamMembers.id, member.id), inArray(teamMembers.status, ['holding', 'held'])))
    .returning({ id: teamMembers.id })
    .all();
  if (released.length === 0) return false;
  release(tx, owners.teamMember(member.id), now);
  if (member.paymentId !== null) markHolds(tx, { clock }, [member.paymentId], 'voiding');
  return true;
}

export function membersOf(db: Queryable, teamId: number): TeamMember[] {
  return db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId)).orderBy(teamMembers.id).all();
}

export function teamById(db: Queryable, teamId: number): Team | undefined {
  return db.select().from(teams).where(eq(teams.id, teamId)).get();
}

/** What the messages name: the team, its link and the product's label. */
export function toldOf(db: Queryable, team: Team) {
  const product = db.select().from(products).where(eq(products.id, team.productId)).get();
  const label = product ? teamItemLabel(db, product, team.variantId) : 'your product';
  return { teamId: team.id, code: team.code, productId: team.productId, label, holdCents: team.holdCents };
}

/** Moves a team from one state to another, once: false when it had already moved on. */
export function moveTeam(tx: Queryable, clock: Clock, teamId: number, from: Team['status'][], set: Partial<typeof teams.$inferInsert>): boolean {
  return (
    tx
      .update(teams)
      .set({ ...set, updatedAt: clock.now() })
      .where(and(eq(teams.id, teamId), inArray(teams.status, from)))
      .returning({ id: teams.id })
      .all().length > 0
  );
}
