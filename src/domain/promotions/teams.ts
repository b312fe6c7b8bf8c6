import { and, eq, inArray } from 'drizzle-orm';
import { teamMembers, teams, type Team } from '../../db/schema.ts';
import { findProduct } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import { chooseVariant } from '../inventory/variants.ts';
import { withCardAttempt } from '../payments/card-attempts.ts';
import type { PaymentFailure } from '../payments/gateway.ts';
import { type HoldEnd, holdPlace, teamStatusOf } from './teams-holds.ts';
import { claimPlace } from './teams-places.ts';
import {
  ALREADY_IN_TEAM,
  HOLD_UNCONFIRMED,
  isTeamCode,
  newTeamCode,
  OWN_TEAM,
  requireTeamBuyer,
  SOMEONE_JOINING,
  TEAM_CLOSED,
  TEAM_EXPIRED,
  TEAM_FULL,
  TEAM_LIFETIME_MS,
  TEAM_NOT_FOUND,
  TEAM_STARTING,
  type TeamDeps,
  teamProduct,
  teamItemLabel,
  teamShare,
} from './teams-rules.ts';

/*
 * Half price with a friend (issue 29 item 1): POST /api/products/{id}/teams starts a team, POST
 * /api/teams/{code}/join takes its second place. A team is for one size, the starter's choice
 * (issue 38): the joiner takes that size, and each place holds a unit of it. Each checks everything it can before a card
 * slot is taken, then claims the place in one transaction (the unit, the member, the hold's row),
 * then asks for the hold (teams-holds.ts). A refusal at any step leaves nothing written.
 */

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: teams\./.test(error.message);
}

function alreadyStarted(deps: TeamDeps, userId: number, productId: number): DomainError {
  const open = deps.db
    .select({ code: teams.code })
    .from(teams)
    .where(and(eq(teams.productId, productId), eq(teams.starterId, userId), inArray(teams.status, ['starting', 'open', 'joining'])))
    .get();
  return new DomainError(409, 'You already have an open team for this product. Share its link with a friend.', undefined, {
    code: 'TEAM_ALREADY_OPEN',
    ...(open ? { teamCode: open.code } : {}),
  });
}

function declined(failure: PaymentFailure | null): DomainError {
  if (failure?.declined)
    return new DomainError(402, 'Your card was declined. Please check your card details or use another card.', undefined, { code: failure.code });
  return new DomainError(402, 'The hold on your card did not go through. Please check your card details or use another card.', undefined, {
    code: failure?.code ?? 'DECLINED',
  });
}

function unconfirmed(): DomainError {
  return new DomainError(502, HOLD_UNCONFIRMED, undefined, { code: 'PAYMENT_UNCONFIRMED' });
}

/** What a hold's end means for the shopper who asked for it. */
function answerAfter(end: HoldEnd, failure: PaymentFailure | null): void {
  if (end === 'failed' || end === 'gone') throw declined(failure);
  if (end === 'unknown') throw unconfirmed();
}

/** Starts a team: the starter's card is held for their share; answers the share code and when it ends. */
export async function startTeam(
  deps: TeamDeps,
  userId: number,
  productId: number,
  clientAddress: string,
  variantId?: number | null,
): Promise<{ code: string; expiresAt: number }> {
  const { db, clock } = deps;
  teamProduct(db, productId);
  // The size first (issue 38): a product with several and none named is a 400 naming them, before any card is asked.
  const size = chooseVariant(db, productId, variantId).id;
  const profile = requireTeamBuyer(deps, userId);
  return withCardAttempt(deps, { userId, address: clientAddress }, async (gate) => {
    let claimed: ReturnType<typeof claimPlace> & { team: Team };
    try {
      claimed = db.transaction((tx) => {
        const product = teamProduct(tx, productId);
        const now = clock.now();
        const team = tx
          .insert(teams)
          .values({
            code: newTeamCode(),
            productId,
            variantId: size,
            starterId: userId,
            status: 'starting',
            ...teamShare(product.priceCents),
            expiresAt: now + TEAM_LIFETIME_MS,
            createdAt: now,
            updatedAt: now,
          })
          .returning()
          .get();
        return { ...claimPlace(deps, tx, team, userId, 'starter'), team };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyStarted(deps, userId, productId);
      throw error;
    }
    const { team } = claimed;
    const product = findProduct(db, productId)!;
    const source = { sourceId: profile.gatewayCardId!, customerId: profile.gatewayCustomerId };
    const { end, failure } = await holdPlace(deps, claimed, source, `CSA team ${team.code}: ${teamItemLabel(db, product, team.variantId)} (half price)`, gate);
    answerAfter(end, failure);
    return { code: team.code, expiresAt: team.expiresAt };
  });
}

function teamOfCode(deps: TeamDeps, code: string): Team {
  const team = isTeamCode(code) ? deps.db.select().from(teams).where(eq(teams.code, code)).get() : undefined;
  if (!team) throw new DomainError(404, TEAM_NOT_FOUND);
  return team;
}

/** Why this shopper cannot take the team's free place now, or nothing when they can. */
function refusalToJoin(deps: TeamDeps, team: Team, userId: number): DomainError | null {
  if (team.starterId === userId) return new DomainError(409, OWN_TEAM);
  const member = deps.db
    .select({ status: teamMembers.status })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId), inArray(teamMembers.status, ['holding', 'held', 'paid'])))
    .get();
  // A retry after an unconfirmed hold: it is still being settled, never asked for twice.
  if (member?.status === 'holding') return new DomainError(409, HOLD_UNCONFIRMED, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
  if (member) return new DomainError(409, ALREADY_IN_TEAM);
  if (team.status === 'capturing' || team.status === 'filled') return new DomainError(409, TEAM_FULL);
  if (team.status === 'expired' || (team.status === 'open' && team.expiresAt <= deps.clock.now())) return new DomainError(409, TEAM_EXPIRED);
  if (team.status === 'cancelled') return new DomainError(409, TEAM_CLOSED);
  if (team.status === 'joining') return new DomainError(409, SOMEONE_JOINING, undefined, { code: 'TEAM_PLACE_TAKEN' });
  if (team.status === 'starting') return new DomainError(409, TEAM_STARTING);
  return null;
}

/**
 * Joins a team: the joiner's card is held the same way, then both holds are captured and each
 * member gets their own order. The free place is claimed by moving the team 'open' -> 'joining'
 * in the claim's transaction: of two joiners at once, the second is refused before any hold.
 */
export async function joinTeam(
  deps: TeamDeps,
  userId: number,
  code: string,
  clientAddress: string,
): Promise<{ code: string; status: Team['status']; orderId: number | null }> {
  const { db, clock } = deps;
  const seen = teamOfCode(deps, code);
  const refused = refusalToJoin(deps, seen, userId);
  if (refused) throw refused;
  teamProduct(db, seen.productId);
  const profile = requireTeamBuyer(deps, userId);
  return withCardAttempt(deps, { userId, address: clientAddress }, async (gate) => {
    const claimed = db.transaction((tx) => {
      // Read again under the write lock: another joiner's claim committed before this one began.
      const team = tx.select().from(teams).where(eq(teams.id, seen.id)).get()!;
      const refusal = refusalToJoin(deps, team, userId);
      if (refusal) throw refusal;
      const moved = tx
        .update(teams)
        .set({ status: 'joining', updatedAt: clock.now() })
        .where(and(eq(teams.id, team.id), eq(teams.status, 'open')))
        .returning({ id: teams.id })
        .all();
      if (moved.length === 0) throw new DomainError(409, SOMEONE_JOINING, undefined, { code: 'TEAM_PLACE_TAKEN' });
      return { ...claimPlace(deps, tx, team, userId, 'joiner'), team };
    });
    const product = findProduct(db, claimed.team.productId)!;
    const source = { sourceId: profile.gatewayCardId!, customerId: profile.gatewayCustomerId };
    const { end, failure } = await holdPlace(
      deps,
      claimed,
      source,
      `CSA team ${claimed.team.code}: ${teamItemLabel(db, product, claimed.team.variantId)} (half price)`,
      gate,
    );
    answerAfter(end, failure);
    const orderId = db.select({ orderId: teamMembers.orderId }).from(teamMembers).where(eq(teamMembers.id, claimed.memberId)).get()?.orderId ?? null;
    return { code: claimed.team.code, status: teamStatusOf(deps, claimed.team.id) ?? 'capturing', orderId };
  });
}
