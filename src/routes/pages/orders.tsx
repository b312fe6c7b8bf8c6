import { Hono } from 'hono';
import { DonationDelivery } from '../../components/DonationDelivery.tsx';
import { Island } from '../../components/Island.tsx';
import { formatDateTime, orderStatusClass, orderStatusLabel } from '../../components/format.ts';
import { requestReturn } from '../../domain/orders/aftersale.ts';
import { DomainError } from '../../domain/errors.ts';
import { type OrderDetail, orderDetail } from '../../domain/orders/order-views.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { setFlash } from '../../http/flash.ts';
import { currentPath, renderPage } from '../../http/render.tsx';
import { idFrom, pathId } from '../../http/request.ts';
import { returnRequestBody } from '../../shared/schemas/aftersale.ts';
import { sizeText } from '../../shared/size-label.ts';
import { fieldErrorsOf } from '../../shared/schemas/field-errors.ts';
import { AfterSale, type ReturnFormState } from './order-aftersale.tsx';
import { orderLinkPath } from '../../domain/orders/visitor-cart.ts';
import { orderViewerOf } from '../../http/visitor-cart.ts';
import { orderLinkNotValid, orderNotFound } from './not-found.tsx';
import { type AuctionRetry, auctionRetryFor } from '../../domain/auctions/retry.ts';
import { type OrderDrawView, orderDrawView } from '../../domain/promotions/mystery-audit.ts';
import { MysteryDrawPanel } from './mystery-draw.tsx';
import { OrderFreeEntries, orderFreeEntriesOf } from './free-entries.tsx';
import type { FreeEntryView } from '../../domain/promotions/free-entries-views.ts';

/** /orders/{id}: one order for its owner, with what happened to it and a receipt that prints. */

function money(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}

function OrderPage({
  order,
  signedIn,
  retry,
  draw,
  freeEntries,
  returnForm,
}: {
  returnForm: ReturnFormState;
  order: OrderDetail;
  signedIn: boolean;
  retry: AuctionRetry | null;
  draw: OrderDrawView | null;
  freeEntries: FreeEntryView[];
}) {
  return (
    <div className="mx-auto grid max-w-2xl gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          {signedIn && (
            <p className="m-0 text-sm print:hidden">
              <a href="/profile?tab=orders" className="font-semibold text-sea-dark">
                My Orders
              </a>
            </p>
          )}
          <h1 className="m-0 mt-1 text-2xl font-extrabold">{order.donation ? `Donation #${order.id}` : `Order #${order.id}`}</h1>
          <p className="m-0 mt-1 text-sm text-slate-600">{`Placed ${formatDateTime(order.createdAt)}`}</p>
        </div>
        <div className="flex items-center gap-3">
          <span className={`rounded-full px-3 py-1 text-sm font-bold ${orderStatusClass(order.status)}`} data-status={order.status}>
            {orderStatusLabel[order.status] ?? order.status}
          </span>
          <Island name="PrintButton" props={{ label: 'Print receipt' }} mode="idle" />
        </div>
      </div>

      <section aria-labelledby="items-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:border-0 print:p-0">
        <h2 id="items-title" className="m-0 text-lg font-bold">
          Items
        </h2>
        <ul className="m-0 mt-3 grid list-none gap-3 p-0">
          {order.items.map((item) => (
            <li key={item.id} className="flex items-center gap-3">
              <img src={item.product.imageUrl} alt="" width={56} height={56} className="h-14 w-14 rounded-lg bg-slate-50 object-contain print:hidden" />
              <span className="min-w-0 flex-1 text-sm">
                {item.productId ? (
                  <a href={`/product/${item.productId}`} className="block font-semibold text-ink break-words">
                    {item.label}
                  </a>
                ) : (
                  <span className="block font-semibold break-words">{item.label}</span>
                )}
                <span className="block text-slate-600 break-words">
                  {[item.product.model, sizeText(item.size), item.purchaseType === 'play' ? 'Prize' : '', `Qty ${item.quantity} × ${money(item.price)}`]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </span>
              <span className="text-sm font-semibold">{money(item.price * item.quantity)}</span>
            </li>
          ))}
        </ul>
        <dl className="m-0 mt-4 grid grid-cols-[1fr_auto] gap-y-1 border-t border-slate-100 pt-3 text-sm">
          <dt>Subtotal</dt>
          <dd className="m-0 text-right">{money(order.subtotal)}</dd>
          {/* A donation goes to the charity, not to the shopper: no delivery line to suggest otherwise. */}
          {!order.donation && (
            <>
              <dt>Shipping</dt>
              <dd className="m-0 text-right">{order.shipping === 0 ? 'Free' : money(order.shipping)}</dd>
            </>
          )}
          <dt>Tax</dt>
          <dd className="m-0 text-right">{money(order.tax)}</dd>
          <dt className="font-bold">Total</dt>
          <dd className="m-0 text-right font-bold">{money(order.total)}</dd>
          {order.refunded > 0 && (
            <>
              <dt className="text-sea-dark font-semibold">Refunded</dt>
              <dd className="m-0 text-right text-sea-dark font-semibold">{`-${money(order.refunded)}`}</dd>
            </>
          )}
        </dl>
      </section>
      {draw && <MysteryDrawPanel draw={draw} orderId={order.id} />}

      <OrderFreeEntries entries={freeEntries} />
      <div className="grid gap-5 sm:grid-cols-2">
        {order.donation ? (
          <DonationDelivery order={order} headingId="delivery-title" />
        ) : (
          <section aria-labelledby="delivery-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:border-0 print:p-0">
            <h2 id="delivery-title" className="m-0 text-lg font-bold">
              Delivery
            </h2>
            <p className="m-0 mt-2 text-sm break-words">{order.customerName}</p>
            <p className="m-0 text-sm break-words">{order.addressLines}</p>
            {order.customerPhone && <p className="m-0 text-sm">{order.customerPhone}</p>}
            <p className="m-0 mt-2 text-sm text-slate-600">{order.shippingLabel}</p>
          </section>
        )}
        <section aria-labelledby="payment-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:border-0 print:p-0">
          <h2 id="payment-title" className="m-0 text-lg font-bold">
            Payment
          </h2>
          <p className="m-0 mt-2 text-sm">{order.paymentLabel}</p>
          {retry && (
            <div className="mt-3 print:hidden">
              <Island name="AuctionRetry" props={{ productId: retry.productId, dueText: formatDateTime(retry.dueAt) }} />
            </div>
          )}
          {order.declinedAttempts > 0 && (
            <p className="m-0 mt-2 text-sm text-slate-600">{`${order.declinedAttempts} declined attempt${order.declinedAttempts === 1 ? '' : 's'} before this order; nothing was charged for ${order.declinedAttempts === 1 ? 'it' : 'them'}.`}</p>
          )}
        </section>
      </div>

      <section aria-labelledby="timeline-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:border-0 print:p-0">
        <h2 id="timeline-title" className="m-0 text-lg font-bold">
          Status
        </h2>
        <ol className="m-0 mt-3 grid list-none gap-3 p-0">
          {order.timeline.map((step) => (
            <li key={`${step.label}-${step.at}`} className="flex gap-3 text-sm" data-step={step.label}>
              <span aria-hidden="true" className="mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full bg-sea-dark" />
              <span className="min-w-0">
                <span className="block font-semibold">{step.label}</span>
                <span className="block text-slate-600">{formatDateTime(step.at)}</span>
                {step.detail && <span className="block text-slate-600 break-words">{step.detail}</span>}
              </span>
            </li>
          ))}
        </ol>
      </section>
      {/* Nothing of a donation is the donor's to send back (aftersale.ts, canRequestReturn). */}
      {!order.donation && <AfterSale order={order} form={returnForm} />}
    </div>
  );
}

/** A refused return request: shown again with the reason as typed and why, so nothing is lost. */
interface ReturnRefusal {
  reason: string;
  message: string;
  status: 400 | 404 | 409;
}

function showOrder(c: AppContext<AppEnv>, id: number, viewer: number | 'anyOwner', key: string | undefined, refusal?: ReturnRefusal) {
  const { db, clock } = c.env.deps;
  const order = orderDetail(db, viewer, id, clock.now());
  if (!order) return orderNotFound(c);
  const page = renderPage(
    c,
    { title: `Order #${order.id}`, path: `/orders/${order.id}`, noindex: true },
    <OrderPage
      order={order}
      signedIn={!!c.get('user')}
      retry={auctionRetryFor(db, order.id, c.get('user')?.id ?? null, clock.now())}
      draw={orderDrawView(db, order.id)}
      freeEntries={orderFreeEntriesOf(c, order.id)}
      returnForm={{ key: viewer === 'anyOwner' ? key : undefined, refusal }}
    />,
    {
      backHref: c.get('user') ? '/profile?tab=orders' : '/',
      status: refusal?.status ?? 200,
      toast: refusal ? { title: 'Return not requested', description: refusal.message, variant: 'destructive' } : undefined,
    },
  );
  // One person's order, opened by a secret link: never kept by a cache.
  page.headers.set('Cache-Control', 'private, no-store');
  return page;
}

/** Its owner (signed in, or the guest whose cookie made it) or whoever holds its e-mailed link (`?key=`) sees an order. */
export const orderPages = new Hono<AppEnv>()
  .post('/orders/:id{[0-9]+}/return-request', idFrom('Order'), async (c) => {
    // The order page's 'Request a return', also without JavaScript. The guest's link key comes in
    // the action's query (and a hidden field); a refusal shows the page again with the reason typed.
    const { db, clock, config } = c.env.deps;
    const id = pathId(c);
    const form = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    const key = c.req.query('key') ?? (typeof form.key === 'string' ? form.key : undefined);
    const viewer = orderViewerOf(c, id, key);
    if (viewer === 'wrong-key') return orderLinkNotValid(c, `/orders/${id}`);
    if (viewer === 'nobody') return c.redirect(`/auth?next=${encodeURIComponent(`/orders/${id}#return`)}`, 302);
    const typed = typeof form.reason === 'string' ? form.reason : '';
    const checked = returnRequestBody.safeParse({ reason: typed });
    if (!checked.success) {
      const message = Object.values(fieldErrorsOf(checked.error))[0] ?? 'Say what is wrong with it.';
      return showOrder(c, id, viewer, key, { reason: typed, message, status: 400 });
    }
    try {
      requestReturn({ db, clock, supportEmail: config.supportEmail }, viewer, id, checked.data.reason);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return showOrder(c, id, viewer, key, { reason: typed, message: error.message, status: error.status === 404 ? 404 : error.status === 400 ? 400 : 409 });
    }
    setFlash(c, { title: 'Return requested', description: 'We got your request and will e-mail you within one business day.' });
    return c.redirect(viewer === 'anyOwner' ? `${orderLinkPath(db, id)}#return` : `/orders/${id}#return`, 303);
  })
  .get('/orders/:id', (c) => {
    const id = Number(c.req.param('id'));
    const key = c.req.query('key');
    const viewer = orderViewerOf(c, id, key);
    // A wrong key is said so (a guest has no account to sign in to); no key at all asks to sign in as before.
    if (viewer === 'wrong-key') return orderLinkNotValid(c, `/orders/${id}`);
    if (viewer === 'nobody') return c.redirect(`/auth?next=${encodeURIComponent(currentPath(c))}`, 302);
    return showOrder(c, id, viewer, key);
  });
