import { DomainError } from '../errors.ts';
import { totalsInDollars, type Totals } from '../../shared/pricing.ts';
import { findProfile } from '../accounts/profile.ts';
import { stateCode } from '../../shared/us-states.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import { cardConfig, cardLabel } from '../payments/card-config.ts';

/*
 * What the two checkouts of spec section 7 share: POST /api/checkout (src/flows/checkout-cart.ts)
 * and POST /api/orders (src/flows/buy-now.ts) refuse and start the same way.
 */

/** A 400 naming the first field that is wrong. */
export function invalidCheckout(fields: Record<string, string>): never {
  throw new DomainError(400, Object.values(fields)[0] ?? 'Invalid checkout', fields);
}

/** A guest's receipt, and the link that opens the order, go to this address. */
export const GUEST_EMAIL_NEEDED = 'Enter your e-mail: your receipt and the link to your order go there.';

/** A 409 with the new total: the client shows it before anyone pays. */
export function totalsChanged(totals: Totals): never {
  throw new DomainError(409, 'Your order total has changed. Please review the new total before paying.', undefined, {
    summary: totalsInDollars(totals),
  });
}

/** What both checkout islands start from: the shopper's saved contact details, the card form's config, the saved card. */
export function checkoutDefaults(db: Queryable, config: Config, userId: number) {
  const profile = findProfile(db, userId);
  const address = profile?.address;
  return {
    contact: {
      name: profile?.name ?? '',
      email: profile?.email ?? '',
      phone: profile?.phone ?? '',
      line1: address?.line1 ?? '',
      line2: address?.line2 ?? '',
      city: address?.city ?? '',
      state: stateCode(address?.state ?? '') ?? address?.state ?? '',
      postalCode: address?.postalCode ?? '',
    },
    config: cardConfig(config),
    savedCard: profile?.gatewayCardId ? cardLabel(profile.paymentMethod) : null,
  };
}
