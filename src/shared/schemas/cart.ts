import * as z from 'zod/mini';
import { CHOOSE_PRODUCT, CHOOSE_SIZE_ID, formInt, id, idOrText } from './fields.ts';
import { checkoutFormSchema, customerInfoSchema, donorInfoSchema } from './profile.ts';

/*
 * Request bodies of /api/cart, /api/checkout (pays the cart) and /api/orders (buy now), and of
 * the cart page's no-JavaScript forms. Browser-safe.
 */

export const MAX_LINE_QUANTITY = 99;
const quantityMessage = 'Quantity must be at least 1';
const quantity = z.int({ error: quantityMessage }).check(z.gte(1, quantityMessage), z.lte(MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`));
const money = (message: string) => z.number({ error: message }).check(z.gte(0, message), z.lte(100_000_000, message));
const cardToken = z
  .string({ error: 'The card token must be text' })
  .check(z.trim(), z.minLength(1, 'Enter a card'), z.maxLength(500, 'The card token is too long'));

/** POST /api/cart */
export const addToCartBody = z.object({
  productId: idOrText(CHOOSE_PRODUCT),
  variantId: z.optional(idOrText(CHOOSE_SIZE_ID)),
  quantity: z.optional(quantity),
});

/** PATCH /api/cart/{id} */
export const cartQuantityBody = z.object({ quantity });

/** The cart page's quantity form (POST /cart/items/{id}): a decimal number typed by hand. */
export const cartQuantityForm = z.object({ quantity: formInt(1, MAX_LINE_QUANTITY, quantityMessage) });

/** The product page's Add to Cart form (POST /cart/add), used without JavaScript. */
export const addToCartForm = z.object({
  productId: idOrText(CHOOSE_PRODUCT),
  variantId: z.optional(idOrText(CHOOSE_SIZE_ID)),
  next: z.optional(z.string().check(z.maxLength(2000))),
});

export const SHIPPING_METHODS = ['local', 'standard', 'express'] as const;
const shippingMethod = z.enum(SHIPPING_METHODS, { error: 'Please choose a shipping method' });
const totalsMessage = 'The order summary must give subtotal, shipping, tax and total in dollars';

/** The checkout form of the cart, sent as `customer` (shippingMethod travels in `shipping`). */
export const cartCustomerSchema = z.omit(checkoutFormSchema, { shippingMethod: true });

/** POST /api/checkout: the whole cart. */
export const cartCheckoutBody = z.object({
  paymentMethod: z.enum(['square', 'cod'], { error: 'Choose card (Square) or cash on delivery.' }),
  paymentToken: z.optional(cardToken),
  items: z.optional(
    z
      .array(
        z.object({
          id: id('Each cart line needs its id'),
          productId: z.optional(id('Each cart line needs its product id')),
          quantity,
          price: z.optional(money('Prices are in dollars')),
          type: z.optional(z.enum(['regular', 'play'], { error: "A cart line is 'regular' or 'play'" })),
        }),
        { error: 'items must be a list of cart lines' },
      )
      .check(z.maxLength(200, 'Too many cart lines')),
  ),
  shipping: z.object({ method: shippingMethod, cost: z.optional(money('Shipping is in dollars')) }, { error: 'Please choose a shipping method' }),
  // Without a summary the answer is a 409 carrying the totals to show before paying.
  summary: z.optional(
    z.object(
      { subtotal: money(totalsMessage), shipping: money(totalsMessage), tax: money(totalsMessage), total: money(totalsMessage) },
      { error: totalsMessage },
    ),
  ),
  customer: z.optional(cartCustomerSchema),
});
export type CartCheckoutBody = z.infer<typeof cartCheckoutBody>;

/** What a checkout form posted without JavaScript says when it cannot take a card. */
export const CARD_NEEDS_JAVASCRIPT = 'Card payment needs JavaScript. Please enable JavaScript and try again, or choose Cash on Delivery in your cart.';

const buyNowFields = {
  productId: idOrText(CHOOSE_PRODUCT),
  variantId: z.optional(idOrText(CHOOSE_SIZE_ID)),
  quantity: z.optional(z.literal(1, { error: 'Single-product checkout is for one item.' })),
  subtotal: z.optional(money(totalsMessage)),
  shipping: z.optional(money(totalsMessage)),
  tax: z.optional(money(totalsMessage)),
  total: z.optional(money(totalsMessage)),
  paymentToken: z.optional(cardToken),
  paymentMethod: z.optional(z.enum(['square', 'apple_pay'], { error: "Pay by card, or with 'apple_pay'." })),
};

/**
 * POST /api/orders: one product, delivered free in Laguna Beach; or, with `donate: true`, bought
 * for the shop's charity partner, where no shipping address is asked (any sent is ignored).
 */
export const buyNowBody = z.discriminatedUnion(
  'donate',
  [
    z.object({
      ...buyNowFields,
      donate: z.optional(z.literal(false)),
      shippingMethod: z.optional(z.enum(['standard', 'local'], { error: 'Single-product checkout delivers locally.' })),
      customerInfo: customerInfoSchema,
    }),
    z.object({ ...buyNowFields, donate: z.literal(true), customerInfo: donorInfoSchema }),
  ],
  { error: 'donate must be true or false.' },
);
export type BuyNowBody = z.infer<typeof buyNowBody>;
