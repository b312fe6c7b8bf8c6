import { cartLines } from '../domain/orders/cart.ts';
import { productLabel } from '../domain/catalog/catalog.ts';
import { DomainError } from '../domain/errors.ts';
import { linesFromCart } from '../domain/orders/order-lines.ts';
import { paymentSourceFor, placeOrder, type OrderDeps, type OrderPayment, type ShippingAddress } from '../domain/orders/orders.ts';
import { GUEST_EMAIL_NEEDED, invalidCheckout, totalsChanged } from '../domain/orders/checkout.ts';
import { cartShippingCents, isLocalZip, LOCAL_DELIVERY, summaryMatches, totalsFor, totalsInDollars } from '../shared/pricing.ts';
import { findProfile, profileShippingAddress, streetLine } from '../domain/accounts/profile.ts';
import { isGuestAccount } from '../domain/accounts/guest-accounts.ts';
import type { CartCheckoutBody } from '../shared/schemas/cart.ts';
import { requireShelfSale } from '../domain/auctions/buy-now.ts';

/*
 * POST /api/checkout (spec section 7): pays for the whole cart, by card or cash on delivery. It
 * joins the cart and the order (orders) with the auctions that may have taken a line's unit since
 * it went in the cart (auctions/buy-now.ts), so it sits above both.
 */

/** The shipping address: the checkout form when sent, else the profile. */
function addressFor(deps: OrderDeps, userId: number, f: CartCheckoutBody['customer']): ShippingAddress {
  if (f) {
    return {
      name: f.fullName,
      email: f.email,
      phone: f.phone,
      line1: streetLine({ line1: f.address, line2: f.address2 }),
      city: f.city,
      state: f.state,
      postalCode: f.zipCode,
      country: 'USA',
    };
  }
  const profile = findProfile(deps.db, userId);
  const address = profile?.address;
  if (!profile?.name || !address?.line1 || !profile.phone) invalidCheckout({ customer: 'Enter your name, phone and delivery address.' });
  return profileShippingAddress(profile, address);
}

/** POST /api/checkout: pays for the whole cart. */
export async function checkoutCart(deps: OrderDeps, userId: number, input: CartCheckoutBody, clientAddress: string): Promise<{ orderId: number }> {
  const { paymentMethod } = input;
  const method = input.shipping.method;

  // Only what the chosen payment needs: the delivery details (below) and, for a card, the card.
  const guest = isGuestAccount(deps.db, userId);
  if (guest && !input.customer) invalidCheckout({ email: GUEST_EMAIL_NEEDED });
  const cart = cartLines(deps.db, userId);
  if (cart.length === 0) throw new DomainError(400, 'Your cart is empty.');
  // The client's view of the cart must still be the cart: same lines, same quantities.
  if (input.items) {
    const sent = new Map(input.items.map((item) => [item.id, item.quantity]));
    const same = sent.size === cart.length && cart.every((line) => sent.get(line.id) === line.quantity);
    if (!same) {
      throw new DomainError(409, 'Your cart has changed. Please review it before paying.', undefined, {
        summary: totalsInDollars(totalsFor(cart, cartShippingCents(cart, method))),
      });
    }
  }
  for (const line of cart) {
    if (line.type !== 'regular') continue;
    // Auctioned since it went in the cart: refused with Buy Now's words, before anything is written.
    try {
      requireShelfSale(deps.db, line.productId, line.product.stock, deps.clock.now());
    } catch (error) {
      if (error instanceof DomainError) throw new DomainError(error.status, error.message, { items: error.message });
      throw error;
    }
    if (line.quantity > line.product.stock) {
      // The stock is the line's size's: the message names the size it ran out in, as the order's own check does (orders.ts).
      const named = line.sizeLabel ? `${productLabel(line.product)} in size ${line.sizeLabel}` : productLabel(line.product);
      const message = line.product.stock <= 0 ? `${named} is sold out.` : `Only ${line.product.stock} of ${named} left.`;
      throw new DomainError(409, message, { items: message });
    }
  }
  const totals = totalsFor(cart, cartShippingCents(cart, method));
  if (!summaryMatches(input.summary, totals)) totalsChanged(totals);

  const address = addressFor(deps, userId, input.customer);
  const hasPrize = cart.some((line) => line.type === 'play');
  if (hasPrize && !isLocalZip(address.postalCode)) {
    const message = `Local Delivery Only: prizes are delivered within the ${LOCAL_DELIVERY.zip} area code (Laguna Beach).`;
    throw new DomainError(400, message, { zipCode: message });
  }
  // The free local delivery is for the address it is driven to, whatever the client's totals say.
  if (method === 'local' && !isLocalZip(address.postalCode)) {
    const message = `Local Delivery Only: ${LOCAL_DELIVERY.label} is for addresses in the ${LOCAL_DELIVERY.zip} area code (Laguna Beach). Choose Standard or Express Shipping.`;
    throw new DomainError(400, message, { zipCode: message });
  }
  const payment: OrderPayment = paymentMethod === 'cod' ? { method: 'cod' } : { method: 'square', ...paymentSourceFor(deps.db, userId, input.paymentToken) };
  const orderId = await placeOrder(deps, {
    userId,
    lines: linesFromCart(cart),
    totals,
    // Only prizes: the store's own free local delivery.
    shippingMethod: cart.some((line) => line.type === 'regular') ? method : 'local',
    address,
    payment,
    checkoutKey: `cart:${userId}`,
    clientAddress,
    guest,
  });
  return { orderId };
}
