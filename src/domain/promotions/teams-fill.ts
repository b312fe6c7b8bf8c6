import { grantFreeEntries } from '../games/free-entries.ts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { orderItems, orders, payments, products, teamMembers, type Team, type TeamMember } from '../../db/schema.ts';
import { notify } from '../accounts/notifications.ts';
import { findProfile, streetLine } from '../accounts/profile.ts';
import { productLabel } from '../catalog/catalog.ts';
import type { Clock } from '../clock.ts';
import { moveHolds } from '../payments/holds.ts';
import { owners, markSold } from '../inventory/stock.ts';
import { queueOrderConfirmation } from '../orders/order-emails.ts';
import { tellTeamFilled } from './teams-messages.ts';
import { membersOf, moveTeam, releasePlace, teamById, toldOf } from './teams-places.ts';
import type { TeamDeps } from './teams-rules.ts';
import { sizeLabelFor } from '../inventory/variants.ts';

/*
 * A full team: both holds are captured (payments/holds.ts moveHolds: the in-between 'capturing'
 * state, a lease, bounded retries), then finishTeam gives each member their own order in one
 * transaction, with its receipt and the 'team is full' message. Whoever gets there first (the
 * request of the second member, the teams job, the engine after the reconciler's or the admin's
 * capture) finishes it; the others find the team no longer 'capturing' and stop.
 *
 * No money without its purchase: a capture that gave up ('capture_failed') keeps the team
 * 'capturing', its place and its unit, under Needs attention until the admin's Retry captures it
 * (then both orders are made here) or the admin's Mark failed releases it. Only a hold that took
 * nothing (voided, or expired at Square) gives its place back.
 */

type PaymentRow = typeof payments.$inferSelect;

function teamHolds(db: Queryable, teamId: number, statuses: PaymentRow['status'][]): PaymentRow[] {
  const ofTeam = db.select({ id: teamMembers.paymentId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return db
    .select()
    .from(payments)
    .where(and(inArray(payments.id, ofTeam), inArray(payments.status, statuses)))
    .all();
}

/** Captures the team's holds still to capture, then finishes the team when all are done. */
export async function captureTeam(deps: TeamDeps, teamId: number, now?: number): Promise<'filled' | 'waiting' | 'gone'> {
  const due = teamHolds(deps.db, teamId, ['capturing']).filter((row) => now === undefined || row.nextAttemptAt === null || row.nextAttemptAt <= now);
  await moveHolds(deps, due);
  return finishTeam(deps, teamId);
}

function orderFor(tx: Queryable, clock: Clock, team: Team, member: TeamMember, hold: PaymentRow) {
  const now = clock.now();
  const profile = findProfile(tx, member.userId);
  const address = profile?.address;
  const product = tx.select().from(products).where(eq(products.id, team.productId)).get();
  const label = product ? productLabel(product) : 'Team buy';
  const order = tx
    .insert(orders)
    .values({
      userId: member.userId,
      orderDate: now,
      subtotalCents: team.priceCents,
      taxCents: team.taxCents,
      shippingCents: 0,
      totalCents: team.holdCents,
      status: 'processing',
      customerName: profile?.name ?? null,
      customerEmail: profile?.email ?? null,
      customerPhone: profile?.phone ?? null,
      shippingAddress: address ? streetLine(address) : null,
      shippingCity: address?.city ?? null,
      shippingState: address?.state ?? null,
      shippingZipCode: address?.postalCode ?? null,
      shippingCountry: address?.country || 'USA',
      paymentMethod: 'square',
      shippingMethod: 'local',
      paymentId: hold.gatewayPaymentId,
      notes: `Half price with a friend: team ${team.code}`,
      checkoutKey: `team:${team.id}:${member.userId}`,
      cardBrand: profile?.paymentMethod?.cardBrand ?? null,
      cardLast4: profile?.paymentMethod?.lastFourDigits ?? null,
      updatedAt: now,
    })
    .returning()
    .get();
  tx.insert(orderItems)
    .values({
      orderId: order.id,
      productId: team.productId,
      variantId: team.variantId,
      sizeLabel: sizeLabelFor(tx, product?.productType ?? '', team.variantId),
      quantity: 1,
      priceCents: team.priceCents,
      purchaseType: 'team',
      productLabel: `${label} (half price with a friend)`,
    })
    .run();
  // Captured, the hold is the order's charge: the order page, refunds and the admin read it as any paid order.
  tx.update(payments).set({ kind: 'order_charge', orderId: order.id, updatedAt: now }).where(eq(payments.id, hold.id)).run();
  tx.update(teamMembers).set({ status: 'paid', orderId: order.id, updatedAt: now }).where(eq(teamMembers.id, member.id)).run();
  markSold(tx, owners.teamMember(member.id), now, order.id);
  // Paid in the same transaction as the order exists: Buy one, play free counts a team buy as any paid order.
  grantFreeEntries(tx, clock, order);
  return order;
}

/** Once every hold of a capturing team has ended: an order for each captured member, the team filled. */
export function finishTeam(deps: TeamDeps, teamId: number): 'filled' | 'waiting' | 'gone' {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const team = teamById(tx, teamId);
    if (team?.status !== 'capturing') return 'gone' as const;
    const members = membersOf(tx, teamId).filter((member) => member.status === 'held');
    const holds = new Map(
      teamHolds(tx, teamId, ['authorized', 'capturing', 'captured', 'capture_failed', 'expired', 'voiding', 'voided', 'void_failed']).map((row) => [
        row.id,
        row,
      ]),
    );
    // A capture still to come, or one that gave up and waits for the admin: nothing is decided yet.
    const undecided = ['authorized', 'capturing', 'capture_failed'];
    if (members.some((member) => undecided.includes(holds.get(member.paymentId ?? -1)?.status ?? ''))) return 'waiting' as const;
    if (!moveTeam(tx, clock, teamId, ['capturing'], { status: 'filled', filledAt: clock.now(), endedAt: clock.now() })) return 'gone' as const;
    const told = toldOf(tx, team);
    for (const member of members) {
      const hold = holds.get(member.paymentId ?? -1);
      if (hold?.status === 'captured') {
        const order = orderFor(tx, clock, team, member, hold);
        queueOrderConfirmation(tx, clock, order);
        notify(tx, clock, member.userId, {
          type: 'payment_success',
          eventKey: `order:${order.id}:paid`,
          title: 'Payment Successful',
          message: `Your half-price team buy of ${told.label} is paid: order #${order.id}.`,
          actionUrl: `/orders/${order.id}`,
          actionText: 'View Order',
        });
        tellTeamFilled(tx, clock, member.userId, told, order.id);
      } else {
        // A hold that took nothing (released, or lapsed at Square; the engine told the admins): its place goes back.
        releasePlace(tx, clock, team, member);
      }
    }
    return 'filled' as const;
  });
}
