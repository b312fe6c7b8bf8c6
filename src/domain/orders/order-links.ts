import type { Queryable } from '../../db/client.ts';
import type { orders } from '../../db/schema.ts';
import { isGuestAccount } from '../accounts/guest-accounts.ts';
import { orderLinkPath } from './visitor-cart.ts';

/*
 * An order as its e-mails name it for the person they go to (issue 37: a guest's 'has shipped'
 * and 'Refund of' messages linked to a page that asked them to sign in, and spoke of a profile).
 * Every order e-mail takes its link and its footnote from here.
 */

type OrderRef = Pick<typeof orders.$inferSelect, 'id' | 'userId'>;

/** A guest cannot sign in: their link carries the order's key (visitor-cart.ts); an account's opens after sign-in. */
export function orderPathFor(db: Queryable, order: OrderRef): string {
  return isGuestAccount(db, order.userId) ? orderLinkPath(db, order.id) : `/orders/${order.id}`;
}

/** Why a message that is not a receipt came: the profile's setting, or for a guest (who has no profile) the order itself. */
export function orderMailFootnote(db: Queryable, order: OrderRef): string {
  return isGuestAccount(db, order.userId)
    ? `You get this message because order #${order.id} was placed as a guest with this e-mail address.`
    : 'You get this message because e-mail notifications are on in your profile.';
}
