import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { isGuestUsername } from '../../shared/visitor.ts';

/** A visitor's guest account (orders/visitor-cart.ts makes them): it cannot sign in, so it gets no free entries and its receipt names the order's link. */
export function isGuestAccount(db: Queryable, userId: number): boolean {
  return isGuestUsername(db.select({ username: users.username }).from(users).where(eq(users.id, userId)).get()?.username);
}
