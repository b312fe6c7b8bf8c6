import type { Queryable } from '../../db/client.ts';
import { notify } from '../accounts/notifications.ts';
import type { Clock } from '../clock.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { formatCents } from '../../shared/pricing.ts';
import { formatStoreDateTime } from '../../shared/store-time.ts';

/*
 * What team members are told, written in the transaction of the change (the outbox): the bell
 * and an e-mail. Event keys make a step that runs again (a retry, the reconciler) tell once.
 */

interface Told {
  teamId: number;
  code: string;
  productId: number;
  label: string;
  holdCents: number;
}

const teamPath = (code: string) => `/team/${code}`;

function tell(
  tx: Queryable,
  clock: Clock,
  userId: number,
  key: string,
  title: string,
  message: string,
  action: { label: string; path: string },
  productId: number,
) {
  notify(tx, clock, userId, { type: 'team_update', eventKey: key, title, message, actionUrl: action.path, actionText: action.label, productId });
  queueEmail(tx, clock, {
    userId,
    kind: 'team_update',
    eventKey: `${key}:${userId}`,
    subject: title,
    body: composeEmail({ heading: title, paragraphs: [message], action }),
  });
}

/** The starter's hold went through: the team is open, here is the link to send. */
export function tellTeamStarted(tx: Queryable, clock: Clock, userId: number, team: Told, expiresAt: number): void {
  const message =
    `Your team for ${team.label} is open. ${formatCents(team.holdCents)} is held on your card (not charged). ` +
    `Send your link to a friend: when they join within 24 hours, you both pay half price and each get your own. ` +
    `If nobody joins by ${formatStoreDateTime(expiresAt)}, the hold is released.`;
  tell(tx, clock, userId, `team:${team.teamId}:started`, 'Your team is open', message, { label: 'Share your team', path: teamPath(team.code) }, team.productId);
}

/** Both holds were captured: each member has their own order. */
export function tellTeamFilled(tx: Queryable, clock: Clock, userId: number, team: Told, orderId: number): void {
  const message = `Your team for ${team.label} is full! ${formatCents(team.holdCents)} was charged for your half-price unit (order #${orderId}). It will be delivered within 2-3 hours (Laguna Beach, 92651).`;
  tell(tx, clock, userId, `team:${team.teamId}:filled`, 'Your team is full', message, { label: 'View your order', path: `/orders/${orderId}` }, team.productId);
}

/** Nobody joined in time: the hold is released. */
export function tellTeamExpired(tx: Queryable, clock: Clock, userId: number, team: Told): void {
  const message = `Nobody joined your team for ${team.label} within 24 hours. The ${formatCents(team.holdCents)} hold on your card is released: you were not charged.`;
  tell(
    tx,
    clock,
    userId,
    `team:${team.teamId}:expired`,
    'Your team has expired',
    message,
    { label: 'Start a new team', path: `/product/${team.productId}` },
    team.productId,
  );
}

/** The member's hold was refused: nothing is held, their place is given back. */
export function tellTeamHoldFailed(tx: Queryable, clock: Clock, userId: number, team: Told, paymentId: number): void {
  notify(tx, clock, userId, {
    type: 'payment_failed',
    eventKey: `payment:${paymentId}:failed`,
    title: 'Payment Failed',
    message: `Your card was not accepted for the team buy of ${team.label}. Nothing was held.`,
    actionUrl: '/profile?tab=payment',
    actionText: 'Update Payment Method',
    productId: team.productId,
  });
}

/** The shop took the product off sale while the team was open: the hold is released. */
export function tellTeamCancelled(tx: Queryable, clock: Clock, userId: number, team: Told): void {
  const message = `The shop took ${team.label} off sale, so your team for it was cancelled. The ${formatCents(team.holdCents)} hold on your card is released: you were not charged.`;
  tell(tx, clock, userId, `team:${team.teamId}:cancelled`, 'Your team was cancelled', message, { label: 'Browse the shop', path: '/products' }, team.productId);
}
