import type { Db } from '../../db/client.ts';
import type { payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { adminAlertWriter } from './purposes.ts';
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
  // The notifications belong to accounts, above payments: the writer is wired with the purposes (src/flows/).
  adminAlertWriter()(deps.db, deps.clock, { eventKey: `payment:${row.id}:${problem}`, message });
}
