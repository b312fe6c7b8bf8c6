import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { orderItems, orders, products } from '../db/schema.ts';
import { resolveImageUrl } from './catalog.ts';
import { centsToDollars } from '../shared/money.ts';

/* Orders as their owner sees them: the confirmation page, the order history, GET /api/orders/{id}. */

/** An order as GET /api/orders/{id} and the order history show it (dollars, items with product). */
export function orderView(db: Db, order: typeof orders.$inferSelect) {
  const items = db
    .select({ item: orderItems, product: products })
    .from(orderItems)
    .leftJoin(products, eq(orderItems.productId, products.id))
    .where(eq(orderItems.orderId, order.id))
    .all();
  return {
    id: order.id,
    userId: order.userId,
    orderDate: order.orderDate,
    createdAt: order.orderDate,
    status: order.status,
    subtotal: centsToDollars(order.subtotalCents),
    shipping: centsToDollars(order.shippingCents),
    tax: centsToDollars(order.taxCents),
    total: centsToDollars(order.totalCents),
    totalAmount: centsToDollars(order.totalCents),
    customerName: order.customerName,
    shippingAddress: order.shippingAddress,
    shippingCity: order.shippingCity,
    shippingState: order.shippingState,
    shippingZipCode: order.shippingZipCode,
    shippingCountry: order.shippingCountry,
    paymentMethod: order.paymentMethod,
    shippingMethod: order.shippingMethod,
    paymentId: order.paymentId,
    notes: order.notes,
    items: items.map(({ item, product }) => ({
      id: item.id,
      productId: item.productId,
      quantity: item.quantity,
      price: centsToDollars(item.priceCents),
      purchaseType: item.purchaseType,
      product: product
        ? { id: product.id, brand: product.brand, model: product.model, imageUrl: resolveImageUrl(product.imageUrl, product.productType) }
        : { id: null, brand: item.productLabel, model: '', imageUrl: '/static/images/defaults/sunglasses.svg' },
    })),
  };
}

export type OrderView = ReturnType<typeof orderView>;

/** The owner's order, or null: anyone else's order answers like a missing one. */
export function findOwnOrder(db: Db, userId: number, id: number): OrderView | null {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const order = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId)))
    .get();
  return order ? orderView(db, order) : null;
}

export function userOrders(db: Db, userId: number): OrderView[] {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(100)
    .all()
    .map((order) => orderView(db, order));
}
