import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { users } from '../../db/schema.ts';
import { isGuestUsername } from '../../shared/visitor.ts';

/* Asked on every order and entry: built once (db/prepared.ts). */
const usernameOf = preparedOnce((db) =>
  db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare(),
);

/** A visitor's guest account (orders/visitor-cart.ts makes them): it cannot sign in, so it gets no free entries and its receipt names the order's link. */
export function isGuestAccount(db: Queryable, userId: number): boolean {
  return isGuestUsername(usernameOf(db).get({ userId })?.username);
}
