import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type PaymentStatus, payments } from '../../db/schema.ts';

/*
 * Money a shopper's payment rows still hold or move: a hold not released, a charge, capture or
 * refund under way. Deleting an account waits for none of these to be left behind (issue 34).
 */

const HOLDING: PaymentStatus[] = ['authorizing', 'authorized', 'charging', 'capturing', 'refunding'];

/** The first such row of the user, or nothing; a hold being voided ('voiding') is on its way back. */
export function moneyHeldFor(db: Queryable, userId: number): { id: number; kind: string; status: PaymentStatus } | undefined {
  return db
    .select({ id: payments.id, kind: payments.kind, status: payments.status })
    .from(payments)
    .where(and(eq(payments.userId, userId), inArray(payments.status, HOLDING)))
    .orderBy(payments.id)
    .get();
}
