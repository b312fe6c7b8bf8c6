import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { notify } from '../domain/accounts/notifications.ts';
import { playPurpose } from '../domain/games/play-purpose.ts';
import { orderChargePurpose } from '../domain/orders/order-charge.ts';
import { refundPurpose } from '../domain/orders/order-refund.ts';
import { registerPurpose, setAdminAlertWriter } from '../domain/payments/purposes.ts';
import { teamHoldPurpose } from '../domain/promotions/teams-holds.ts';

/*
 * Every way to buy tells the money engine what its payment rows mean, here, above the areas
 * (docs/decisions.md "One money engine"): payments knows no area, each area knows payments. The
 * app, the server, the jobs and every entry point that reconciles import this file once; a new way
 * to buy adds one line here and touches no reconciler or review action.
 */

registerPurpose(orderChargePurpose);
registerPurpose(refundPurpose);
registerPurpose(playPurpose);
registerPurpose(teamHoldPurpose);

// Payment alerts reach every admin as a notification (accounts), written in the caller's transaction or alone.
setAdminAlertWriter((db, clock, alert) => {
  const admins = db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).all();
  for (const admin of admins) {
    notify(db, clock, admin.id, {
      type: 'admin_alert',
      eventKey: alert.eventKey,
      title: 'Payment needs attention',
      message: alert.message,
      actionUrl: '/admin?tab=orders',
      actionText: 'Open Orders',
    });
  }
});
