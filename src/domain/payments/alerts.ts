import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, type payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { notify } from '../accounts/notifications.ts';
import { logPaymentEvent } from './states.ts';

/** Tells every admin about a payment that needs a person, once per payment and problem. */
export function alertAdmins(deps: { db: Db; clock: Clock }, row: typeof payments.$inferSelect, problem: string, message: string): void {
  logPaymentEvent('payment_alert', {
    paymentId: row.id,
    kind: row.kind,
    status: problem,
    orderId: row.orderId,
    playId: row.playId,
    gatewayPaymentId: row.gatewayPaymentId,
    message,
  });
  const admins = deps.db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).all();
  for (const admin of admins) {
    notify(deps.db, deps.clock, admin.id, {
      type: 'admin_alert',
      eventKey: `payment:${row.id}:${problem}`,
      title: 'Payment needs attention',
      message,
      actionUrl: '/admin?tab=orders',
      actionText: 'Open Orders',
    });
  }
}
