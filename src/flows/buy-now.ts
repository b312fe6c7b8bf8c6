import type { products } from '../db/schema.ts';
import { findProduct, productLabel, requireStillSold } from '../domain/catalog/catalog.ts';
import { DomainError } from '../domain/errors.ts';
import { paymentSourceFor, placeOrder, type OrderDeps, type OrderPayment, type ShippingAddress } from '../domain/orders/orders.ts';
import { totalsChanged } from '../domain/orders/checkout.ts';
import { summaryMatches, totalsFor } from '../shared/pricing.ts';
import { streetLine } from '../domain/accounts/profile.ts';
import { isGuestAccount } from '../domain/accounts/guest-accounts.ts';
import type { CustomerInfo } from '../shared/schemas/profile.ts';
import type { BuyNowBody } from '../shared/schemas/cart.ts';
import { buyNowStance, endAuctionForBuyNow } from '../domain/auctions/buy-now.ts';
import { chooseSize } from '../domain/inventory/variants.ts';

/*
 * POST /api/orders (spec section 7): one product, delivered free in Laguna Beach (92651 only).
 * When the product's one unit is held for an auction nobody has bid in, the order's claim ends
 * the auction (auctions/buy-now.ts): it joins orders and auctions, so it sits above both.
 */

/**
 * Someone other than the buyer receives a buy-now (a donation: promotions/donations.ts): given
 * the product, it refuses it (throws) or says where the order goes and under which checkout key.
 */
export type BuyNowRecipient = (product: typeof products.$inferSelect) => { address: ShippingAddress; checkoutKey: string; donationTo: string };

/** POST /api/orders: one product, delivered free in Laguna Beach, or to the `recipient` when there is one. */
export async function buyNow(deps: OrderDeps, userId: number, input: BuyNowBody, clientAddress: string, recipient?: BuyNowRecipient): Promise<{ id: number }> {
  const { productId } = input;
  const product = findProduct(deps.db, productId);
  if (!product) throw new DomainError(404, 'Product not found');
  requireStillSold(product);
  if (!product.buyNowEnabled) throw new DomainError(409, 'This product is not for sale right now.');
  // Checked before anything else about the sale: a refused donation says why, whatever the stock.
  const other = recipient?.(product);
  if (!other && input.donate) throw new DomainError(409, 'This store takes no donations.');
  const size = chooseSize(deps.db, product, input.variantId);
  const stance = buyNowStance(deps.db, productId, size.available, deps.clock.now());
  if (stance === 'shelf' && size.available <= 0)
    throw new DomainError(409, `${productLabel(product)}${size.sizeLabel ? ` in size ${size.sizeLabel}` : ''} is sold out.`);

  const totals = totalsFor([{ priceCents: size.priceCents, quantity: 1 }], 0);
  if (!summaryMatches({ subtotal: input.subtotal, shipping: input.shipping, tax: input.tax, total: input.total }, totals)) totalsChanged(totals);

  const source = paymentSourceFor(deps.db, userId, input.paymentToken);
  const payment: OrderPayment = { method: input.paymentMethod === 'apple_pay' ? 'apple_pay' : 'square', ...source };
  const id = await placeOrder(deps, {
    userId,
    lines: [
      {
        productId,
        variantId: size.variantId,
        sizeLabel: size.sizeLabel,
        quantity: 1,
        priceCents: size.priceCents,
        purchaseType: 'buy_now',
        label: productLabel(product),
        stockReserved: false,
      },
    ],
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
