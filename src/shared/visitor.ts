/*
 * A visitor's cart belongs to a guest account whose username is `visitor:{hash of the cookie's
 * token}` (domain/orders/visitor-cart.ts). The prefix and the cookie's life are shared by the
 * cart, the guest checks of every area and the retention job, so they sit below all of them.
 */

export const VISITOR_PREFIX = 'visitor:';
/** How long the cart cookie lives from the first add; the retention job removes the guest account (without orders) a day later. */
export const VISITOR_COOKIE_DAYS = 30;

export function isGuestUsername(username: string | null | undefined): boolean {
  return typeof username === 'string' && username.startsWith(VISITOR_PREFIX);
}
