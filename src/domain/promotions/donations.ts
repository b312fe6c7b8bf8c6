import type { CharityPartner } from '../../config.ts';
import type { products } from '../../db/schema.ts';
import type { DonorInfo } from '../../shared/schemas/profile.ts';
import { DomainError } from '../errors.ts';
import type { ShippingAddress } from '../orders/orders.ts';

/*
 * 'Buy to donate' (issue 29, donateEnabled): POST /api/orders with `donate: true` buys one unit
 * for the shop's charity partner. It is a buy-now order on the same engine (claim -> charge ->
 * confirm, keys, reconciler, one attempt at a time), with three differences kept here: the
 * product must allow it, no shipping address is asked (the order is delivered to the charity's
 * address, stored on the order with the charity's name in `orders.donation_to`), and cash on
 * delivery is never offered (nobody at the charity's door would pay; the schema takes card or
 * Apple Pay only). The 92651 rule does not apply: the shop hands it over to its local partner.
 */

export const DONATIONS_CLOSED = 'Donations are not open yet: the shop has no charity partner set up.';
export const NOT_DONATABLE = 'This product cannot be donated. Buy it for yourself, or choose a product marked Donate.';

type Product = typeof products.$inferSelect;

/** The charity that would receive this product, or a 409 that changes nothing. */
export function charityFor(product: Pick<Product, 'donateEnabled'>, charity: CharityPartner | null): CharityPartner {
  if (!charity) throw new DomainError(409, DONATIONS_CLOSED, { donate: DONATIONS_CLOSED });
  if (!product.donateEnabled) throw new DomainError(409, NOT_DONATABLE, { donate: NOT_DONATABLE });
  return charity;
}

/**
 * The order's contact and delivery: the buyer's name, e-mail and phone (the receipt, and who to
 * ask), the charity's address as the delivery address (the fulfilment list's 'Deliver to').
 */
export function donationAddress(donor: DonorInfo, charity: CharityPartner): ShippingAddress {
  return {
    name: donor.name,
    email: donor.email,
    phone: donor.phone,
    line1: charity.address,
    city: '',
    state: '',
    postalCode: '',
    country: '',
  };
}

/** One donation checkout at a time per shopper and product, apart from buying the same product for themselves. */
export const donationCheckoutKey = (userId: number, productId: number) => `donate:${userId}:${productId}`;
