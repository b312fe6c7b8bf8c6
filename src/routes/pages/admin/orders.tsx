import type { ReactNode } from 'react';
import { formatDateTime, orderStatusClass, orderStatusLabel } from '../../../components/format.ts';
import { ADMIN_ORDER_LIMIT, type AdminOrder, type OrderStatus } from '../../../domain/orders/admin-orders.ts';
import { formatDollars } from '../../../shared/money.ts';
import { Island } from '../../../components/Island.tsx';
import { NeedsAttention, type AttentionRow } from './attention.tsx';
import type { ReturnRequestRow } from '../../../domain/orders/aftersale.ts';
import { OrderAfterSale, ReturnRequests } from './order-aftersale.tsx';
import { isGuestUsername } from '../../../shared/visitor.ts';
import { withSize } from '../../../shared/size-label.ts';

/** The status filters of the Orders tab, in the order an admin works through them. */
const filters: { status: OrderStatus | null; label: string }[] = [
  { status: null, label: 'All' },
  { status: 'processing', label: 'Processing' },
  { status: 'shipped', label: 'Shipped' },
  { status: 'completed', label: 'Delivered' },
  { status: 'canceled', label: 'Canceled' },
  { status: 'pending', label: 'Payment pending' },
  { status: 'failed', label: 'Payment failed' },
];

/** The Donations filter: 'Buy to donate' orders, whatever their status, to hand over to the charity. */
function DonationsFilter({ active }: { active: boolean }) {
  return (
    <a
      href="/admin?tab=orders&donations=1"
      aria-current={active ? 'page' : undefined}
      className={`whitespace-nowrap rounded-full border px-3 py-1 text-sm font-semibold no-underline ${active ? 'border-ink bg-ink text-white' : 'border-slate-300 text-slate-700 hover:border-ink'}`}
    >
      Donations
    </a>
  );
}

const filterHref = (status: OrderStatus | null) => (status ? `/admin?tab=orders&status=${status}` : '/admin?tab=orders');

function StatusForm({
  order,
  to,
  filter,
  children,
  className,
}: {
  order: AdminOrder;
  to: 'completed' | 'canceled';
  filter: OrderStatus | null;
  children: ReactNode;
  className: string;
}) {
  return (
    <form method="post" action={`/admin/orders/${order.id}/status`} className="contents">
      <input type="hidden" name="status" value={to} />
      {filter && <input type="hidden" name="filter" value={filter} />}
      <button type="submit" className={`flex-1 cursor-pointer whitespace-nowrap rounded-lg px-3 py-2 text-sm font-bold sm:flex-none ${className}`}>
        {children}
      </button>
    </form>
  );
}

function OrderRow({ order, filter }: { order: AdminOrder; filter: OrderStatus | null }) {
  const card = order.paid;
  return (
    <li className="border-b border-slate-100 py-4 first:pt-0 last:border-0 last:pb-0">
      <article aria-labelledby={`order-${order.id}`} data-order-id={order.id} data-status={order.status}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 id={`order-${order.id}`} className="m-0 text-base font-bold">{`Order #${order.id}`}</h3>
            <p className="m-0 text-sm text-slate-600">{formatDateTime(order.orderDate)}</p>
          </div>
          <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold ${orderStatusClass(order.status)}`} data-status={order.status}>
            {orderStatusLabel[order.status] ?? order.status}
          </span>
        </div>
        {order.donationTo && (
          <p data-donation-to="" className="m-0 mt-2 rounded-lg bg-sea/10 px-2.5 py-1 text-sm font-bold text-sea-dark">
            {order.status === 'completed' ? `Donation handed over to ${order.donationTo}` : `Donation to hand over to ${order.donationTo}`}
          </p>
        )}
        <p className="m-0 mt-2 text-sm">
          <span className="font-semibold">{order.customer.name}</span>
          <span className="block break-words text-slate-600 sm:inline">
            <span className="hidden sm:inline"> · </span>
            {[order.customer.email, isGuestUsername(order.customer.username) ? 'Guest checkout' : `@${order.customer.username}`].filter(Boolean).join(' · ')}
          </span>
        </p>
        <dl className="m-0 mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm" aria-label={`Delivery of order #${order.id}`}>
          <dt className="text-slate-600">Deliver to</dt>
          <dd className="m-0 min-w-0 break-words">{order.delivery.address || '—'}</dd>
          <dt className="text-slate-600">Phone</dt>
          <dd className="m-0 min-w-0 break-words">
            {order.delivery.phone ? <a href={`tel:${order.delivery.phone.replace(/[^0-9+]/g, '')}`}>{order.delivery.phone}</a> : '—'}
          </dd>
          <dt className="text-slate-600">Delivery</dt>
          <dd className="m-0 min-w-0 break-words">{order.delivery.methodLabel}</dd>
          {order.delivery.notes && (
            <>
              <dt className="text-slate-600">Notes</dt>
              <dd className="m-0 min-w-0 break-words">{order.delivery.notes}</dd>
            </>
          )}
        </dl>
        <ul className="m-0 mt-2 grid list-none gap-1 p-0 text-sm" aria-label={`Items of order #${order.id}`}>
          {order.items.map((item) => (
            <li key={item.id} className="flex gap-3">
              <span className="min-w-0 flex-1 break-words">
                {withSize(item.label, item.size)}
                {item.purchaseType === 'play' && (
                  <span className="ml-1.5 rounded-full bg-coral/10 px-1.5 py-0.5 text-[11px] font-bold text-coral-dark">Prize</span>
                )}
                <span className="text-slate-600">{` × ${item.quantity}`}</span>
              </span>
              <span className="shrink-0 tabular-nums">{formatDollars(item.price * item.quantity)}</span>
            </li>
          ))}
        </ul>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-3">
          <p className="m-0 text-sm">
            <span className="font-bold">{`Total ${formatDollars(order.total)}`}</span>
            <span className="text-slate-600">{` · ${order.paymentLabel}`}</span>
            {order.refunded > 0 && <span className="text-slate-600">{` · Refunded ${formatDollars(order.refunded)}`}</span>}
            {order.paymentNote && <span className="block text-slate-600">{order.paymentNote}</span>}
          </p>
          <a href={`/admin/orders/${order.id}/packing-slip`} className="text-sm font-semibold text-sea-dark">
            Packing slip<span className="sr-only">{` (order #${order.id})`}</span>
          </a>
          {order.status === 'pending' && <p className="m-0 text-sm font-semibold text-amber-800">Payment being confirmed with the card processor</p>}
          {(order.status === 'processing' || order.status === 'shipped') && (
            <div className="flex w-full flex-wrap gap-2 sm:w-auto">
              <StatusForm order={order} to="completed" filter={filter} className="bg-emerald-700 text-white hover:bg-emerald-800">
                {order.donationTo ? 'Mark handed over' : 'Mark Delivered'}
                <span className="sr-only">{` (order #${order.id})`}</span>
              </StatusForm>
              {order.status === 'processing' && (
                <StatusForm order={order} to="canceled" filter={filter} className="border border-red-300 bg-white text-red-700 hover:border-red-600">
                  {card ? 'Cancel Order & Refund' : 'Cancel Order'}
                  <span className="sr-only">{` (order #${order.id})`}</span>
                </StatusForm>
              )}
            </div>
          )}
        </div>
        <OrderAfterSale order={order} />
      </article>
    </li>
  );
}

/** The admin panel's Orders tab: newest first, status filters, deliver or cancel processing orders. */
export function AdminOrders({
  orders,
  status,
  donations = false,
  attention = [],
  returns = [],
}: {
  orders: AdminOrder[];
  status: OrderStatus | null;
  /** Only 'Buy to donate' orders (the Donations filter). */
  donations?: boolean;
  attention?: AttentionRow[];
  returns?: ReturnRequestRow[];
}) {
  return (
    <>
      <NeedsAttention items={attention} />
      <ReturnRequests items={returns} />
      <section aria-labelledby="admin-orders-title" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="admin-orders-title" className="sr-only">
          Orders
        </h2>
        <nav aria-label="Filter orders by status" className="mb-4 flex gap-2 overflow-x-auto pb-1">
          {filters.map((f) => (
            <a
              key={f.label}
              href={filterHref(f.status)}
              aria-current={!donations && status === f.status ? 'page' : undefined}
              className={`whitespace-nowrap rounded-full border px-3 py-1 text-sm font-semibold no-underline ${!donations && status === f.status ? 'border-ink bg-ink text-white' : 'border-slate-300 text-slate-700 hover:border-ink'}`}
            >
              {f.label}
            </a>
          ))}
          <DonationsFilter active={donations} />
        </nav>
        <p className="m-0 mb-4 text-sm">
          <a
            href={donations ? '/admin/orders.csv?donations=1' : status ? `/admin/orders.csv?status=${status}` : '/admin/orders.csv'}
            className="font-semibold text-sea-dark"
            download
          >
            Export CSV
          </a>
        </p>
        {orders.length === 0 ? (
          <p className="m-0 py-8 text-center text-slate-600">
            {donations
              ? 'No donations to hand over yet.'
              : status
                ? `No ${(filters.find((f) => f.status === status)?.label ?? status).toLowerCase()} orders.`
                : 'No orders yet.'}
          </p>
        ) : (
          <>
            <ul className="m-0 list-none p-0">
              {orders.map((order) => (
                <OrderRow key={order.id} order={order} filter={status} />
              ))}
            </ul>
            {orders.length >= ADMIN_ORDER_LIMIT && (
              <p className="m-0 mt-4 text-center text-sm text-slate-600">{`Showing the newest ${ADMIN_ORDER_LIMIT} orders.`}</p>
            )}
          </>
        )}
      </section>
    </>
  );
}

/** The step between the button and the change: nothing moves until the admin confirms here. */
export function OrderStatusConfirm({ order, to, filter }: { order: AdminOrder; to: 'completed' | 'canceled'; filter: OrderStatus | null }) {
  const cancel = to === 'canceled';
  const action = cancel ? (order.paid ? 'Cancel Order & Refund' : 'Cancel Order') : order.donationTo ? 'Mark handed over' : 'Mark Delivered';
  const back = filter ? `/admin?tab=orders&status=${filter}` : '/admin?tab=orders';
  return (
    <section aria-labelledby="confirm-title" className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-6">
      <h1 id="confirm-title" className="m-0 text-xl font-extrabold">{`${action}: order #${order.id}?`}</h1>
      <p className="mt-3 text-sm text-slate-700">
        {cancel
          ? order.paid
            ? `The customer's card is refunded ${formatDollars(order.total)} and the items go back in stock. This cannot be undone.`
            : 'The order is canceled and its items go back in stock. This cannot be undone.'
          : order.donationTo
            ? `${order.customer.name} is told the donation was handed over to ${order.donationTo}.`
            : `${order.customer.name} is told the order was delivered to ${order.delivery.address}.`}
      </p>
      <ul className="m-0 mt-3 list-none p-0 text-sm">
        {order.items.map((item) => (
          <li key={item.id}>{`${item.quantity} × ${withSize(item.label, item.size)}`}</li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <a href={back} className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline">
          {cancel ? 'Keep Order' : 'Not Yet'}
        </a>
        <form method="post" action={`/admin/orders/${order.id}/status`}>
          <input type="hidden" name="status" value={to} />
          <input type="hidden" name="confirmed" value="yes" />
          {filter && <input type="hidden" name="filter" value={filter} />}
          <button
            type="submit"
            className={`cursor-pointer rounded-lg px-4 py-2 text-sm font-bold text-white ${cancel ? 'bg-red-700 hover:bg-red-800' : 'bg-emerald-700 hover:bg-emerald-800'}`}
          >
            {`Yes, ${action}`}
          </button>
        </form>
      </div>
    </section>
  );
}

/** A printable slip for the driver: items and quantities, where, who, and the notes; no prices. */
export function PackingSlip({ order }: { order: AdminOrder }) {
  return (
    <article className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-6 print:border-0 print:p-0">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="m-0 text-xs font-bold uppercase tracking-widest text-slate-500">Packing slip</p>
          <h1 className="m-0 mt-1 text-2xl font-extrabold">{`Order #${order.id}`}</h1>
          <p className="m-0 text-sm text-slate-600">{formatDateTime(order.orderDate)}</p>
        </div>
        <Island name="PrintButton" props={{ label: 'Print packing slip' }} mode="idle" />
      </div>
      <dl className="m-0 mt-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">Deliver to</dt>
        <dd className="m-0 break-words">{order.delivery.name}</dd>
        <dt className="font-semibold">Address</dt>
        <dd className="m-0 break-words">{order.delivery.address}</dd>
        <dt className="font-semibold">Phone</dt>
        <dd className="m-0 break-words">{order.delivery.phone ?? '—'}</dd>
        <dt className="font-semibold">Delivery</dt>
        <dd className="m-0 break-words">{order.delivery.methodLabel}</dd>
        <dt className="font-semibold">Payment</dt>
        <dd className="m-0 break-words">{order.paymentMethod === 'cod' ? `Collect ${formatDollars(order.total)} in cash` : 'Paid'}</dd>
        {order.delivery.notes && (
          <>
            <dt className="font-semibold">Notes</dt>
            <dd className="m-0 break-words">{order.delivery.notes}</dd>
          </>
        )}
      </dl>
      <table className="mt-5 w-full border-collapse text-sm">
        <thead>
          <tr>
            <th className="border-b border-slate-300 py-2 text-left">Item</th>
            <th className="border-b border-slate-300 py-2 text-right">Qty</th>
            <th className="border-b border-slate-300 py-2 text-right">Packed</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.id}>
              <td className="border-b border-slate-100 py-2 break-words">{`${withSize(item.label, item.size)}${item.purchaseType === 'play' ? ' (prize)' : ''}`}</td>
              <td className="border-b border-slate-100 py-2 text-right tabular-nums">{item.quantity}</td>
              <td className="border-b border-slate-100 py-2 text-right" aria-label="Packed">
                ☐
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
