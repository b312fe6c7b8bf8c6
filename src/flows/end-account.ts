import type { Db, Queryable } from '../db/client.ts';
import type { Team } from '../db/schema.ts';
import { checkAccountDeletion, eraseAccountIn, refuseOpenPurchases } from '../domain/accounts/account-data.ts';
import type { PasswordHasher } from '../domain/accounts/passwords.ts';
import { openBidsOf } from '../domain/auctions/open-bids.ts';
import type { Clock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import type { PaymentGateway } from '../domain/payments/gateway.ts';
import { moneyHeldFor } from '../domain/payments/held-money.ts';
import { cancelOpenTeam, TEAM_IN_FLIGHT, teamsWithPlaceOf } from '../domain/promotions/teams-cancel.ts';
import { voidReleasedHolds } from '../domain/promotions/teams-expiry.ts';

/*
 * Deleting an account (the profile's Delete account, POST /api/user/delete) ends what is open on
 * it first (issue 34, item 4), in the transaction that erases it: the open team a shopper started
 * is cancelled (their place released, the unit back, the hold voided after the commit). What
 * cannot be ended without touching money in flight, or without taking a sale from under the
 * shop, refuses with a 409 that names it and nothing changes: an order on its way, a $1 game
 * entry (accounts' rules, as before), any bid in an auction not over (as eBay does), a team whose
 * hold is being asked for or whose holds are being captured, and any other payment still holding
 * money. So nothing is left holding money for a deleted account.
 * docs/decisions.md, "Ending what is open before a delete (issue 34)".
 */

export interface AccountClosingDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
  passwords: PasswordHasher;
}

const listed = (labels: string[]) => [...new Set(labels)].join(', ');

function refuseOpenBids(db: Queryable, userId: number): void {
  const open = openBidsOf(db, userId);
  if (open.length === 0) return;
  const leading = open.filter((bid) => bid.leading);
  if (leading.length > 0) {
    throw new DomainError(409, `You are the highest bidder on ${listed(leading.map((bid) => bid.label))}: deletion is possible once those auctions end.`);
  }
  throw new DomainError(409, `You have bids on ${listed(open.map((bid) => bid.label))}: deletion is possible once those auctions end.`);
}

function teamRefusal(team: Team, userId: number): string {
  if (team.status === 'capturing') return `Your team buy is being paid for (team ${team.code}). You can delete your account once its order has been delivered.`;
  if (team.status === 'joining' && team.starterId === userId) return `A friend is joining your team right now (team ${team.code}). Try again in a few minutes.`;
  return `The hold on your card for a team buy is being confirmed (team ${team.code}). Try again in a few minutes.`;
}

export async function closeAccount(deps: AccountClosingDeps, userId: number, password: string): Promise<void> {
  const { db, clock } = deps;
  const unusable = await checkAccountDeletion(deps, userId, password);
  const voiding = db.transaction((tx) => {
    refuseOpenPurchases(tx, userId);
    refuseOpenBids(tx, userId);
    const inFlight = teamsWithPlaceOf(tx, userId, TEAM_IN_FLIGHT)[0];
    if (inFlight) throw new DomainError(409, teamRefusal(inFlight, userId));
    // Their own messages would be erased with the account, so the starter is not told.
    const released = teamsWithPlaceOf(tx, userId, ['open']).flatMap((team) => cancelOpenTeam(tx, clock, team, false) ?? []);
    const held = moneyHeldFor(tx, userId);
    if (held) throw new DomainError(409, `A payment of yours is still being processed (payment #${held.id}). Try again in a few minutes.`);
    eraseAccountIn(tx, clock, userId, unusable);
    return released;
  });
  await voidReleasedHolds(deps, voiding);
}
