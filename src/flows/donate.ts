import type { CharityPartner } from '../config.ts';
import type { OrderDeps } from '../domain/orders/orders.ts';
import { charityFor, donationAddress, donationCheckoutKey } from '../domain/promotions/donations.ts';
import type { BuyNowBody } from '../shared/schemas/cart.ts';
import { buyNow } from './buy-now.ts';

/* 'Buy to donate' (promotions/donations.ts has its rules): a buy-now order delivered to the charity partner. */

/** POST /api/orders with `donate: true`: buy-now's rules and money engine, delivered to the charity partner. */
export function donateNow(
  deps: OrderDeps,
  userId: number,
  input: Extract<BuyNowBody, { donate: true }>,
  clientAddress: string,
  charity: CharityPartner | null,
): Promise<{ id: number }> {
  return buyNow(deps, userId, input, clientAddress, (product) => {
    const partner = charityFor(product, charity);
    return { address: donationAddress(input.customerInfo, partner), checkoutKey: donationCheckoutKey(userId, product.id), donationTo: partner.name };
  });
}
