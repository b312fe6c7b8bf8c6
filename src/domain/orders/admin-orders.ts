import { and, desc, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { orderItems, orders, orderStatuses, payments, products, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { centsToDollars } from '../../shared/money.ts';
import { addressLinesOf, queueCanceledEmail, queueDeliveredEmail, shippingLabelOf } from './order-emails.ts';
import { notify } from '../accounts/notifications.ts';
import { restoreSoldStock } from './order-charge.ts';
import { type AfterSaleAdminView, afterSaleAdminViews } from './aftersale.ts';
import { startRefund } from './order-refund.ts';
import { sendRefund } from '../payments/refunds.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { grantFreeEntries, withdrawFreeEntries } from '../games/free-entries.ts';

/** A payment row: here, a refund recorded as started, to send after its transaction commits. */
type PaymentRow = typeof payments.$inferSelect;

/*
 * Order management for admins (Orders tab of the admin panel, /api/admin/orders).
 *
 * Only a 'processing' order (paid by card, or cash on delivery) can be moved, and only to
 * 'completed' (delivered) or 'canceled'. Every move is claimed with a conditional UPDATE
 * (WHERE status = 'processing'), so two admins clicking at once change an order once.
 *
 * Canceling a paid order refunds the whole charge through the gateway with a key derived from
 * the order id ('{prefix}-refund-{id}', payments/keys.ts). The order is claimed as 'canceled' before the call and
 * a 'pending' refund row is written in the same transaction; if the gateway refuses or fails,
 * the order goes back to 'processing', the refund row is marked 'failed' (kept as the record of
 * the attempt, and reused with the same key on a retry, so an answer lost in transit can never
 * refund twice) and nothing else has changed: the charge stays 'captured', no stock moves and
 * the customer is not told anything. A refund row still 'pending' after a crash marks an order
 * to reconcile by hand.
 */

export const ADMIN_ORDER_LIMIT = 200;

export type OrderStatus = (typeof orderStatuses)[number];
export type OrderStatusChange = 'completed' | 'canceled';

export interface AdminOrderDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (orderStatuses as readonly string[]).includes(value);
}

export function isOrderStatusChange(value: unknown): value is OrderStatusChange {
  return value === 'completed' || value === 'canceled';
}

/** How each payment method reads in the admin list. */
export const paymentMethodLabels: Record<string, string> = {
  square: 'Card',
  apple_pay: 'Apple Pay',
  cod: 'Cash on delivery',
  play: 'Game entry',
};

export function paymentMethodLabel(method: string): string {
  return paymentMethodLabels[method] ?? method;
}

export interface AdminOrderItem {
  id: number;
  productId: number | null;
  label: string;
  /** The size sold ('' when the product has no sizes to tell apart). */
  size: string;
  quantity: number;
  /** Unit price in dollars. */
  price: number;
  purchaseType: string;
}

export interface AdminOrder {
  id: number;
  orderDate: number;
  status: OrderStatus;
  customer: { id: number; name: string; email: string | null; username: string };
  items: AdminOrderItem[];
  subtotal: number;
  shipping: number;
  tax: number;
  total: number;
  paymentMethod: string;
  paymentLabel: string;
  /** True when the order has a captured card charge, i.e. canceling it refunds the card. */
  paid: boolean;
  /** Dollars refunded so far (0 when nothing was). */
  refunded: number;
  /** An admin's note on the charge (marked paid by hand, and why), or null. */
  paymentNote: string | null;
  /** Shipment, return request and refunds with their reasons, and which after-sale actions apply. */
  afterSale: AfterSaleAdminView;
  /** 'Buy to donate': the charity it is handed over to (delivery then names the charity); null otherwise. */
  donationTo: string | null;
  /** What the driver needs: who, where, how, and the shopper's notes. */
  delivery: { name: string; phone: string | null; address: string; method: string; methodLabel: string; notes: string | null };
}

function paymentState(rows: (typeof payments.$inferSelect)[]) {
  const paid = new Set<number>();
  const refunded = new Map<number, number>();
  const notes = new Map<number, string>();
  for (const row of rows) {
    if (row.orderId === null) continue;
    if (row.kind === 'order_charge' && row.reviewNote) notes.set(row.orderId, row.reviewNote);
    if (row.kind === 'order_charge' && row.status === 'captured') paid.add(row.orderId);
    if (row.kind === 'refund' && row.status === 'refunded') refunded.set(row.orderId, (refunded.get(row.orderId) ?? 0) + row.amountCents);
  }
  return { paid, refunded, notes };
}

/** Orders newest first (at most ADMIN_ORDER_LIMIT), optionally of one status and only donations, with customer, items and payment. */
export function listOrdersForAdmin(db: Queryable, options: { status?: OrderStatus | null; donations?: boolean } = {}): AdminOrder[] {
  const conditions = [options.status ? eq(orders.status, options.status) : undefined, options.donations ? isNotNull(orders.donationTo) : undefined];
  return adminOrders(db, and(...conditions));
}

/** One order in the admin shape, or null. */
export function findOrderForAdmin(db: Queryable, id: number): AdminOrder | null {
  return adminOrders(db, eq(orders.id, id))[0] ?? null;
}

function adminOrders(db: Queryable, where: SQL | undefined): AdminOrder[] {
  const rows = db
    .select({ order: orders, user: { id: users.id, username: users.username, fullName: users.fullName, email: users.email } })
    .from(orders)
    .innerJoin(users, eq(orders.userId, users.id))
    .where(where)
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(ADMIN_ORDER_LIMIT)
    .all();
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.order.id);
  const items = db
    .select({ item: orderItems, brand: products.brand, model: products.model })
    .from(orderItems)
    .leftJoin(products, eq(orderItems.productId, products.id))
    .where(inArray(orderItems.orderId, ids))
    .orderBy(orderItems.id)
    .all();
  const itemsByOrder = new Map<number, AdminOrderItem[]>();
  for (const { item, brand, model } of items) {
    const list = itemsByOrder.get(item.orderId) ?? [];
    list.push({
      id: item.id,
      productId: item.productId,
      label: item.productLabel || [brand, model].filter(Boolean).join(' ') || 'Deleted product',
      size: item.sizeLabel,
      quantity: item.quantity,
      price: centsToDollars(item.priceCents),
      purchaseType: item.purchaseType,
    });
    itemsByOrder.set(item.orderId, list);
  }
  const { paid, refunded, notes } = paymentState(db.select().from(payments).where(inArray(payments.orderId, ids)).all());
  const afterSale = afterSaleAdminViews(
    db,
    rows.map((row) => row.order),
  );
  return rows.map(({ order, user }) => ({
    id: order.id,
    orderDate: order.orderDate,
    status: order.status,
    customer: {
      id: user.id,
      name: order.customerName || user.fullName || user.username,
      email: order.customerEmail || user.email || null,
      username: user.username,
    },
    items: itemsByOrder.get(order.id) ?? [],
    subtotal: centsToDollars(order.subtotalCents),
    shipping: centsToDollars(order.shippingCents),
    tax: centsToDollars(order.taxCents),
    total: centsToDollars(order.totalCents),
    paymentMethod: order.paymentMethod,
    paymentLabel: paymentMethodLabel(order.paymentMethod),
    paid: paid.has(order.id),
    refunded: centsToDollars(refunded.get(order.id) ?? 0),
    paymentNote: notes.get(order.id) ?? null,
    afterSale: afterSale.get(order.id)!,
    donationTo: order.donationTo,
    delivery: {
      name: order.donationTo ?? (order.customerName || user.fullName || user.username),
      phone: order.customerPhone,
      address: addressLinesOf(order),
      method: order.shippingMethod,
      methodLabel: order.donationTo ? `Donation: hand over to ${order.donationTo}` : shippingLabelOf(order.shippingMethod),
      notes: order.notes,
    },
  }));
}

const alreadyMoved: Record<string, (id: number) => string> = {
  completed: (id) => `Order #${id} has already been delivered.`,
  canceled: (id) => `Order #${id} has already been canceled.`,
  pending: (id) => `Order #${id} is still waiting for its payment.`,
  failed: (id) => `Order #${id} failed at payment.`,
  shipped: (id) => `Order #${id} has shipped, so it can no longer be canceled; refund it instead.`,
};

function notProcessing(db: Queryable, id: number): DomainError {
  const status = db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)).get()?.status;
  if (!status) return new DomainError(404, 'Order not found.');
  const said = alreadyMoved[status]?.(id) ?? `Order #${id} is ${status}.`;
  return new DomainError(409, `${said} Only processing orders can be marked delivered or canceled.`, undefined, { status });
}

export interface StatusChangeResult {
  order: AdminOrder;
  /** Cents refunded to the card by this change (0 for cash orders and deliveries). */
  refundedCents: number;
  /** A sentence for the admin's toast. */
  message: string;
}

function orderIdOf(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * Moves a 'processing' order to 'completed' (delivered) or 'canceled' (refunding a card
 * payment in full and restoring buy-now stock), and tells the customer. Throws DomainError:
 * 400 for another target status, 404 for an unknown order, 409 when the order is not
 * processing (or another admin moved it first), 502 when the refund failed.
 */
/**
 * PATCH /api/admin/orders/{id}/status: a processing order is delivered, or canceled (and its
 * charge refunded). Steps: check the request; claim the order's move out of 'processing' with
 * everything it decides, in one transaction (two admins at once: one wins, the other gets 409);
 * for a canceled card order, send the refund after that commit (the reconciler sends it again,
 * under the same key, if this process stops first).
 */
export async function changeOrderStatus(deps: AdminOrderDeps, orderId: unknown, to: unknown): Promise<StatusChangeResult> {
  const order = orderToChange(deps.db, orderId, to);
  if (order.to === 'completed') return markDelivered(deps, order);
  const refund = claimCancel(deps, order);
  if (!refund) return { order: findOrderForAdmin(deps.db, order.id)!, refundedCents: 0, message: `Order #${order.id} canceled.` };
  return sendCancelRefund(deps, order, refund);
}

/** The order and the move asked for, or a 400/404 that changes nothing. */
function orderToChange(db: Queryable, orderId: unknown, to: unknown): OrderToChange & { to: OrderStatusChange } {
  if (!isOrderStatusChange(to)) {
    const message = "Choose 'completed' (delivered) or 'canceled'.";
    throw new DomainError(400, message, { status: message });
  }
  const id = orderIdOf(orderId);
  const found = id === null ? undefined : db.select({ id: orders.id, userId: orders.userId }).from(orders).where(eq(orders.id, id)).get();
  if (!found) throw new DomainError(404, 'Order not found.');
  return { ...found, to };
}

interface OrderToChange {
  id: number;
  userId: number;
}

/** Moves the order out of 'processing' (the claim: only one change wins), or returns undefined. */
function claimMove(tx: Queryable, clock: Clock, order: OrderToChange, status: OrderStatusChange) {
  const now = clock.now();
  return (
    tx
      .update(orders)
      .set(status === 'completed' ? { status, deliveredAt: now, updatedAt: now } : { status, canceledAt: now, updatedAt: now })
      // A parcel with the carrier (shipped) is delivered too; only an order not yet sent can be canceled.
      .where(and(eq(orders.id, order.id), status === 'completed' ? inArray(orders.status, ['processing', 'shipped']) : eq(orders.status, 'processing')))
      .returning()
      .get()
  );
}

/** Delivered: the claim, the shopper's notification and email, all or nothing. Nothing to undo with the gateway. */
function markDelivered(deps: AdminOrderDeps, order: OrderToChange): StatusChangeResult {
  const { db, clock } = deps;
  const delivered = db.transaction((tx) => {
    const moved = claimMove(tx, clock, order, 'completed');
    if (!moved) return false;
    // Cash on delivery is paid when it is delivered: only then does it give its free entries.
    if (moved.paymentMethod === 'cod') grantFreeEntries(tx, clock, moved);
    notify(tx, clock, order.userId, {
      type: 'order_status',
      eventKey: `order:${order.id}:delivered`,
      title: moved.donationTo ? 'Donation handed over' : 'Order delivered',
      message: moved.donationTo
        ? `Your donation #${order.id} was handed over to ${moved.donationTo}. Thank you for giving!`
        : `Your order #${order.id} has been delivered. Enjoy!`,
      actionUrl: `/orders/${order.id}`,
      actionText: 'View Order',
    });
    queueDeliveredEmail(tx, clock, moved);
    return true;
  });
  if (!delivered) throw notProcessing(db, order.id);
  return { order: findOrderForAdmin(db, order.id)!, refundedCents: 0, message: `Order #${order.id} marked as delivered.` };
}

/**
 * Canceled: the claim and, in the same transaction, either the refund of a captured charge
 * recorded as started (returned, to send after the commit) or, for cash on delivery, the whole
 * cancel (stock back, notification, email; null returned).
 */
function claimCancel(deps: AdminOrderDeps, order: OrderToChange): PaymentRow | null {
  const { db, clock } = deps;
  const claimed = db.transaction((tx) => {
    const moved = claimMove(tx, clock, order, 'canceled');
    if (!moved) return null;
    // Unused free entries go with the order at once (a refused refund gives them back: order-refund.ts).
    withdrawFreeEntries(tx, clock, order.id);
    const charge = tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.kind, 'order_charge'), eq(payments.status, 'captured')))
      .get();
    if (charge) return { refund: startRefund(tx, deps, charge, order.id) };
    restoreSoldStock(tx, order.id, clock.now());
    notify(tx, clock, order.userId, {
      type: 'order_status',
      eventKey: `order:${order.id}:canceled`,
      title: 'Order canceled',
      message: `Your order #${order.id} was canceled.`,
      actionUrl: `/orders/${order.id}`,
      actionText: 'View Order',
    });
    queueCanceledEmail(tx, clock, moved);
    return { refund: null };
  });
  if (!claimed) throw notProcessing(db, order.id);
  return claimed.refund;
}

/** Sends the started refund: refused is a 502 (the order is processing again, its units still sold: order-refund.ts); unknown is retried by the reconciler. */
async function sendCancelRefund(deps: AdminOrderDeps, order: OrderToChange, refund: PaymentRow): Promise<StatusChangeResult> {
  const { db } = deps;
  const sent = await sendRefund(deps, refund);
  if (sent.outcome === 'refused') throw new DomainError(502, `The refund failed: ${sent.detail || sent.code}`, undefined, { code: sent.code });
  if (sent.outcome === 'unknown') {
    return {
      order: findOrderForAdmin(db, order.id)!,
      refundedCents: 0,
      message: `Order #${order.id} canceled. The payment gateway did not confirm the refund yet; it is retried automatically with the same key, so the card is refunded once.`,
    };
  }
  return { order: findOrderForAdmin(db, order.id)!, refundedCents: refund.amountCents, message: `Order #${order.id} canceled and refunded.` };
}
