import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ORDER_STATUSES } from '../../shared/schemas/admin.ts';
import { users } from './accounts.ts';
import { products, productVariants } from './catalog.ts';
import { games } from './games.ts';

/*
 * Orders: the cart, and the orders a checkout or a buy now makes with their lines.
 */

export const orderStatuses = ORDER_STATUSES;

export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderDate: integer('order_date').notNull(),
    totalCents: integer('total_cents').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    status: text('status', { enum: orderStatuses }).notNull().default('pending'),
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    customerPhone: text('customer_phone'),
    shippingAddress: text('shipping_address'),
    shippingCity: text('shipping_city'),
    shippingState: text('shipping_state'),
    shippingZipCode: text('shipping_zip_code'),
    shippingCountry: text('shipping_country'),
    /** square, apple_pay, cod, play */
    paymentMethod: text('payment_method').notNull(),
    shippingMethod: text('shipping_method').notNull(),
    /** The gateway's payment id once paid. */
    paymentId: text('payment_id'),
    notes: text('notes'),
    /**
     * What this order pays for ('cart:{userId}', 'buy:{userId}:{productId}'). While the order is
     * pending no second order with the same key can exist: one payment attempt at a time.
     */
    checkoutKey: text('checkout_key'),
    /** The card as the gateway reported it, for the receipt ('Visa', '1111'). */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    deliveredAt: integer('delivered_at'),
    canceledAt: integer('canceled_at'),
    /** A cart order sent by carrier (outside 92651): when, with whom, and the number the shopper tracks it by. */
    shippedAt: integer('shipped_at'),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    /** The shopper's 'Request a return' (one per order) and when an admin refunded it (it leaves Needs attention). */
    returnRequestedAt: integer('return_requested_at'),
    returnReason: text('return_reason'),
    returnHandledAt: integer('return_handled_at'),
    /**
     * 'Buy to donate': the charity partner's name when the order was placed (null for any other
     * order). Its shipping fields then hold the charity's address, and delivered means handed over.
     */
    donationTo: text('donation_to'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.orderDate),
    uniqueIndex('orders_checkout_in_flight').on(t.checkoutKey).where(sql`status = 'pending'`),
    index('orders_status_idx').on(t.status),
    // The donations list reads only donations, newest first, whatever the number of orders.
    index('orders_donation_idx').on(t.orderDate).where(sql`donation_to IS NOT NULL`),
  ],
);

export const orderItems = sqliteTable(
  'order_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    priceCents: integer('price_cents').notNull(),
    /** buy_now or play */
    purchaseType: text('purchase_type').notNull().default('buy_now'),
    /** Name at the time of sale, so history survives a deleted product. */
    productLabel: text('product_label').notNull().default(''),
    /** The variant (size) it is for (issue 38). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    /** The variant's size at the time of sale ('' when the product has no sizes to tell apart). */
    sizeLabel: text('size_label').notNull().default(''),
    /** The cart line it came from: emptied once the order is paid, whoever finishes it. */
    cartItemId: integer('cart_item_id'),
    /** The game a prize was won in. */
    gameId: integer('game_id'),
  },
  // An order's lines are read with every order view and receipt, and a prize's order by its game:
  // without these each read walked every line ever sold (the soak's orders slowed as they piled up).
  (t) => [index('order_items_order_idx').on(t.orderId), index('order_items_product_idx').on(t.productId), index('order_items_game_idx').on(t.gameId)],
);

export const cartItems = sqliteTable(
  'cart_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull().default(1),
    priceCents: integer('price_cents').notNull(),
    /** The variant (size) it is for (issue 38). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    /** regular, or play for a won prize at $1 */
    type: text('type', { enum: ['regular', 'play'] })
      .notNull()
      .default('regular'),
    /** The game a play prize was won in. */
    gameId: integer('game_id').references(() => games.id, { onDelete: 'set null' }),
    addedAt: integer('added_at').notNull(),
  },
  (t) => [index('cart_items_user_idx').on(t.userId)],
);
