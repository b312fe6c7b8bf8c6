import { eq, sum } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { cartItems } from '../db/schema.ts';

/** Number of units in the user's cart, for the header and bottom bar badges. */
export function cartCount(db: Db, userId: number): number {
  const row = db.select({ n: sum(cartItems.quantity) }).from(cartItems).where(eq(cartItems.userId, userId)).get();
  return Number(row?.n ?? 0);
}
