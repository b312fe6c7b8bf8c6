import { eq } from 'drizzle-orm';
import { products } from '../../db/schema.ts';
import { cartLines } from './cart.ts';
import { productLabel, requireStillSold } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import { linesFromCart, paymentSourceFor, placeOrder, type OrderDeps, type OrderPayment, type ShippingAddress } from './orders.ts';
import { cartShippingCents, LOCAL_DELIVERY, summaryMatches, totalsFor, totalsInDollars, type Totals } from '../../shared/pricing.ts';
import { findProfile, streetLine } from '../accounts/profile.ts';
import { stateCode } from '../../shared/us-states.ts';
import { isGuestAccount } from '../accounts/guest-accounts.ts';
import type { Config } from '../../config.ts';
import type { CustomerInfo } from '../../shared/schemas/profile.ts';
import type { Queryable } from '../../db/client.ts';
import { cardConfig, cardLabel } from '../payments/card-config.ts';
import type { BuyNowBody, CartCheckoutBody } from '../../shared/schemas/cart.ts';
import { buyNowStance, endAuctionForBuyNow, requireShelfSale } from '../auctions/buy-now.ts';

/*
 * The two checkouts of spec section 7: POST /api/checkout (the cart, card or cash on delivery)
 * and POST /api/orders (one product, local delivery in 92651 only, free shipping).
 */

function invalid(fields: Record<string, string>): never {
  throw new DomainError(400, Object.values(fields)[0] ?? 'Invalid checkout', fields);
}

/** A guest's receipt, and the link that opens the order, go to this address. */
export const GUEST_EMAIL_NEEDED = 'Enter your e-mail: your receipt and the link to your order go there.';

function totalsChanged(totals: Totals): never {
  throw new DomainError(409, 'Your order total has changed. Please review the new total before paying.', undefined, {
    summary: totalsInDollars(totals),
  });
}

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
  if (!profile?.name || !address?.line1 || !profile.phone) invalid({ customer: 'Enter your name, phone and delivery address.' });
  return {
    name: profile.name,
    email: profile.email ?? '',
    phone: profile.phone ?? '',
    line1: streetLine(address),
    city: address.city,
    state: address.state,
    postalCode: address.postalCode,
    country: address.country || 'USA',
  };
}

/** POST /api/checkout: pays for the whole cart. */
export async function checkoutCart(deps: OrderDeps, userId: number, input: CartCheckoutBody, clientAddress: string): Promise<{ orderId: number }> {
  const { paymentMethod } = input;
  const method = input.shipping.method;

  // Only what the chosen payment needs: the delivery details (below) and, for a card, the card.
  const guest = isGuestAccount(deps.db, userId);
  if (guest && !input.customer) invalid({ email: GUEST_EMAIL_NEEDED });
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
      const message =
        line.product.stock <= 0 ? `${productLabel(line.product)} is sold out.` : `Only ${line.product.stock} of ${productLabel(line.product)} left.`;
      throw new DomainError(409, message, { items: message });
    }
  }
  const totals = totalsFor(cart, cartShippingCents(cart, method));
  if (!summaryMatches(input.summary, totals)) totalsChanged(totals);

  const address = addressFor(deps, userId, input.customer);
  const hasPrize = cart.some((line) => line.type === 'play');
  if (hasPrize && address.postalCode.trim().slice(0, 5) !== LOCAL_DELIVERY.zip) {
    const message = `Local Delivery Only: prizes are delivered within the ${LOCAL_DELIVERY.zip} area code (Laguna Beach).`;
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

/**
 * Someone other than the buyer receives a buy-now (a donation: promotions/donations.ts): given
 * the product, it refuses it (throws) or says where the order goes and under which checkout key.
 */
export type BuyNowRecipient = (product: typeof products.$inferSelect) => { address: ShippingAddress; checkoutKey: string; donationTo: string };

/** POST /api/orders: one product, delivered free in Laguna Beach, or to the `recipient` when there is one. */
export async function buyNow(deps: OrderDeps, userId: number, input: BuyNowBody, clientAddress: string, recipient?: BuyNowRecipient): Promise<{ id: number }> {
  const { productId } = input;
  const product = deps.db.select().from(products).where(eq(products.id, productId)).get();
  if (!product) throw new DomainError(404, 'Product not found');
  requireStillSold(product);
  if (!product.buyNowEnabled) throw new DomainError(409, 'This product is not for sale right now.');
  // Checked before anything else about the sale: a refused donation says why, whatever the stock.
  const other = recipient?.(product);
  if (!other && input.donate) throw new DomainError(409, 'This store takes no donations.');
  const stance = buyNowStance(deps.db, productId, product.quantity, deps.clock.now());
  if (stance === 'shelf' && product.quantity <= 0) throw new DomainError(409, `${productLabel(product)} is sold out.`);

  const totals = totalsFor([{ priceCents: product.priceCents, quantity: 1 }], 0);
  if (!summaryMatches({ subtotal: input.subtotal, shipping: input.shipping, tax: input.tax, total: input.total }, totals)) totalsChanged(totals);

  const source = paymentSourceFor(deps.db, userId, input.paymentToken);
  const payment: OrderPayment = { method: input.paymentMethod === 'apple_pay' ? 'apple_pay' : 'square', ...source };
  const id = await placeOrder(deps, {
    userId,
    lines: [{ productId, quantity: 1, priceCents: product.priceCents, purchaseType: 'buy_now', label: productLabel(product), stockReserved: false }],
    totals,
    shippingMethod: 'local',
    address: other ? other.address : buyerAddress(input.customerInfo as CustomerInfo),
    payment,
    checkoutKey: other ? other.checkoutKey : `buy:${userId}:${productId}`,
    clientAddress,
    guest: isGuestAccount(deps.db, userId),
    donationTo: other?.donationTo,
    // The unit held for an auction nobody has bid in: the auction ends in this order's claim.
    inClaim: stance === 'auction' ? (tx) => endAuctionForBuyNow(tx, productId, deps.clock.now()) : undefined,
  });
  return { id };
}

function buyerAddress(customer: CustomerInfo): ShippingAddress {
  return {
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    line1: streetLine(customer.address),
    city: customer.address.city,
    state: customer.address.state,
    postalCode: customer.address.postalCode,
    country: 'USA',
  };
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
