import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { OrderCard } from '../../components/OrderSummary.tsx';
import { DonationDelivery } from '../../components/DonationDelivery.tsx';
import { ProductImage } from '../../components/ProductImage.tsx';
import { findProduct, productIdOf, productLabel, productView } from '../../domain/catalog/catalog.ts';
import { findOwnOrder, recentPurchaseOf } from '../../domain/orders/order-views.ts';
import { elapsedText } from '../../shared/format.ts';
import { formatCents, totalsFor } from '../../shared/pricing.ts';
import { checkoutDefaults } from '../../domain/orders/checkout.ts';
import type { AppEnv } from '../../http/context.ts';
import { setFlash } from '../../http/flash.ts';
import { CARD_NEEDS_JAVASCRIPT } from '../../shared/schemas/cart.ts';
import { currentPath, renderPage } from '../../http/render.tsx';
import { productNoLongerSold, productNotFound, orderNotFound } from './not-found.tsx';
import { cartOwnerOf } from '../../http/visitor-cart.ts';
import type { CharityPartner } from '../../config.ts';
import { DomainError } from '../../domain/errors.ts';
import { charityFor } from '../../domain/promotions/donations.ts';
import { buyNowOutlook } from '../../domain/auctions/buy-now.ts';
import { OrderFreeEntries, orderFreeEntriesOf } from './free-entries.tsx';
import { checkoutSize } from '../../domain/orders/line-size.ts';
import { sizeText } from '../../shared/size-label.ts';
import { variantsOf } from '../../domain/inventory/variants.ts';

/** A product sold in several sizes reached without one: its sizes, each a link to this checkout in that size. */
function ChooseSize({ productId, donate, choices }: { productId: number; donate: boolean; choices: { size: string; available: number }[] }) {
  return (
    <nav aria-labelledby="choose-size-title" data-choose-size="" className="grid gap-2 rounded-xl border border-slate-200 p-4 text-sm">
      <h2 id="choose-size-title" className="m-0 text-base font-bold">
        Choose a size
      </h2>
      <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
        {choices.map((choice) =>
          choice.available > 0 ? (
            <li key={choice.size}>
              <a
                href={`/checkout?productId=${productId}&size=${encodeURIComponent(choice.size)}${donate ? '&donate=1' : ''}`}
                className="inline-block min-w-11 rounded-lg border border-slate-300 px-3 py-2 text-center font-semibold text-ink no-underline"
              >
                {choice.size}
              </a>
            </li>
          ) : (
            <li key={choice.size} className="rounded-lg border border-dashed border-slate-200 px-3 py-2 text-slate-500">
              {`${choice.size}: sold out`}
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/** `?donate=1`: the charity a donation would go to, or why this product cannot be donated (the ordinary checkout shows then). */
function donationMode(asked: string | undefined, product: { donateEnabled: boolean }, charity: CharityPartner | null) {
  if (asked !== '1') return { donation: null, refusal: null };
  try {
    return { donation: charityFor(product, charity), refusal: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { donation: null, refusal: error.message };
  }
}

/** Single-product checkout `/checkout?productId=` (`&donate=1`: for the charity partner) and the order confirmation (spec section 2). */
export const checkoutPages = new Hono<AppEnv>()
  .get('/checkout', (c) => {
    const raw = c.req.query('productId');
    if (!raw) {
      setFlash(c, { title: 'No product specified for checkout', description: 'Choose a product first.', variant: 'destructive' });
      return c.redirect('/', 302);
    }
    // Signed in, a visitor with a cart, or nobody yet: anyone can buy now (as a guest with their e-mail).
    const owner = cartOwnerOf(c);
    const id = productIdOf(raw);
    const stored = id === null ? undefined : findProduct(c.env.deps.db, id);
    if (!stored) return productNotFound(c, 'checkout');
    if (stored.archivedAt !== null) return productNoLongerSold(c, productLabel(stored));
    const product = productView(stored);
    const { db, clock } = c.env.deps;
    // The size the product page sent the shopper on with (`&size=M`); its own price and stock.
    const { chosen, choices } = checkoutSize(db, stored, { variantId: c.req.query('variantId'), size: c.req.query('size') });
    const priceCents = chosen?.priceCents ?? stored.priceCents;
    const totals = totalsFor([{ priceCents, quantity: 1 }], 0);
    const { contact, config, savedCard } = checkoutDefaults(c.env.deps.db, c.env.deps.config, owner ?? 0);
    // Beside an auction: the unit it holds is for sale until the first bid, then the page says to bid (issue 37 item 6).
    const auction = buyNowOutlook(db, stored.id, stored.quantity, clock.now());
    const soldOut = (chosen ? chosen.available : stored.quantity) <= 0 && !auction.heldUnit && auction.refusal === null;
    const bought = owner === null ? null : recentPurchaseOf(db, owner, stored.id, clock.now());
    const boughtAgo = bought ? { text: elapsedText(clock.now() - bought.at), orderId: bought.orderId } : null;
    const { donation, refusal: donationRefusal } = donationMode(c.req.query('donate'), stored, c.env.deps.config.charity);
    const page = renderPage(
      c,
      { title: 'Checkout', path: '/checkout', noindex: true },
      <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
        <section aria-labelledby="checkout-title" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
          <h1 id="checkout-title" className="m-0 mb-5 text-2xl font-extrabold">
            {donation ? 'Checkout: donation' : 'Checkout'}
          </h1>
          {donationRefusal && (
            <p role="alert" data-donation-refused="" className="m-0 mb-5 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
              {donationRefusal}
            </p>
          )}
          {boughtAgo && (
            <div data-recent-purchase="" className="mb-5 rounded-xl border border-sea/40 bg-sea/5 p-4 text-sm">
              <p className="m-0 font-bold">{`You bought this ${boughtAgo.text} ago.`}</p>
              <p className="m-0 mt-1 text-slate-700">
                <a href={`/orders/${boughtAgo.orderId}`} className="font-semibold text-sea-dark">
                  {`See order #${boughtAgo.orderId}`}
                </a>
                {soldOut ? '' : ', or buy it again below.'}
              </p>
            </div>
          )}
          {!c.get('user') && !soldOut && (
            <p data-guest-checkout="" className="m-0 mb-5 rounded-xl bg-slate-50 p-3 text-sm text-slate-700">
              {'Buying as a guest: your receipt and a link to your order go to the e-mail you enter. '}
              <a href={`/auth?next=${encodeURIComponent(currentPath(c))}`} className="font-semibold text-sea-dark">
                Log in
              </a>
              {' to use your saved details and card.'}
            </p>
          )}
          {auction.refusal ? (
            <div role="status" data-bid-instead="" className="grid gap-2 rounded-lg border border-sea/40 bg-sea/5 p-3 text-sm">
              <p className="m-0 font-bold">{auction.refusal}</p>
              <a href={`/product/${product.id}#bid`} className="justify-self-start rounded-lg bg-ink px-4 py-2 font-bold text-white no-underline">
                Go to the auction and bid
              </a>
            </div>
          ) : soldOut ? (
            <p className="m-0 text-slate-700">
              {chosen?.sizeLabel ? `${sizeText(chosen.sizeLabel)} just sold out. Check back soon!` : 'This product just sold out. Check back soon!'}
            </p>
          ) : !chosen ? (
            <ChooseSize productId={product.id} donate={donation !== null} choices={choices} />
          ) : (
            <Island
              name="BuyNowCheckout"
              props={{
                product: { id: product.id, priceCents, variantId: chosen.variantId },
                customer: contact,
                config,
                savedCard,
                boughtAgo,
                donation,
              }}
            />
          )}
        </section>
        <aside aria-labelledby="summary-title" className="self-start rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
          <h2 id="summary-title" className="m-0 mb-4 text-lg font-bold">
            Order summary
          </h2>
          <div className="flex gap-3">
            <ProductImage product={product} size={80} className="h-20 w-20 rounded-xl bg-slate-50 object-contain" />
            <div>
              <p className="m-0 font-semibold">{productLabel(product)}</p>
              <p className="m-0 text-sm text-slate-600">{`SKU: ${product.model}`}</p>
              {chosen?.sizeLabel && (
                <p className="m-0 text-sm font-semibold" data-size={chosen.sizeLabel}>
                  {sizeText(chosen.sizeLabel)}
                </p>
              )}
              <p className="m-0 mt-1 font-bold">{formatCents(priceCents)}</p>
            </div>
          </div>
          <dl className="m-0 mt-4 grid grid-cols-[1fr_auto] gap-y-1 text-sm">
            <dt>Subtotal</dt>
            <dd className="m-0 text-right">{formatCents(totals.subtotalCents)}</dd>
            <dt>Shipping</dt>
            <dd className="m-0 text-right">Free</dd>
            <dt>Tax (8%)</dt>
            <dd className="m-0 text-right">{formatCents(totals.taxCents)}</dd>
            <dt className="mt-2 border-t border-slate-200 pt-2 text-base font-bold">Total</dt>
            <dd className="m-0 mt-2 border-t border-slate-200 pt-2 text-right text-base font-bold">{formatCents(totals.totalCents)}</dd>
          </dl>
          <p className="m-0 mt-4 text-xs text-slate-600">
            {donation
              ? `A donation: we hand it over to ${donation.name} in Laguna Beach. Nothing is delivered to you.`
              : 'Delivered within 2-3 hours in Laguna Beach. 30-day money-back guarantee.'}
          </p>
        </aside>
      </div>,
      { backHref: `/product/${product.id}` },
    );
    // A page for one signed-in shopper, and what it says changes with each purchase: never kept by a cache, nor by Back.
    page.headers.set('Cache-Control', 'private, no-store');
    return page;
  })
  .post('/checkout/submit', async (c) => {
    // Reached only without JavaScript (or before the island loaded): card and Apple Pay need the payment form's script.
    const body = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    const productId = productIdOf(typeof body.productId === 'string' ? body.productId : '');
    // Back to the same checkout, in the size it was for (a one-size product's URL stays as it always was).
    const sized = productId !== null && variantsOf(c.env.deps.db, productId).length > 1;
    const variantId = sized && typeof body.variantId === 'string' && /^[0-9]{1,15}$/.test(body.variantId) ? `&variantId=${body.variantId}` : '';
    setFlash(c, { title: 'Payment Failed', description: CARD_NEEDS_JAVASCRIPT, variant: 'destructive' });
    return c.redirect(productId ? `/checkout?productId=${productId}${variantId}` : '/', 303);
  })
  .get('/order-confirmation/:id', (c) => {
    // The guest who just paid is known by the cart cookie their checkout used.
    const owner = cartOwnerOf(c);
    if (owner === null) return c.redirect(`/auth?next=${encodeURIComponent(currentPath(c))}`, 302);
    const order = findOwnOrder(c.env.deps.db, owner, Number(c.req.param('id')));
    if (!order) {
      return orderNotFound(c);
    }
    const local = order.shippingMethod === 'local';
    return renderPage(
      c,
      { title: 'Order Confirmed', path: '/profile', noindex: true },
      <div className="mx-auto grid max-w-xl gap-5">
        <div className="rounded-2xl bg-ink p-6 text-white">
          <h1 className="m-0 text-2xl font-extrabold">
            {order.status === 'failed'
              ? 'Payment failed'
              : order.donation
                ? `Thank you! Your donation to ${order.donation.charity} is confirmed.`
                : 'Thank you! Your order is confirmed.'}
          </h1>
          <p className="m-0 mt-2 text-slate-200">{`Order #${order.id} · ${order.paymentMethod === 'cod' ? 'Cash on delivery' : 'Paid by card'}`}</p>
        </div>
        {/* Near the top, so a keyboard or screen-reader user reaches 'Stay on this page' within the 5 s. */}
        <Island
          name="RedirectCountdown"
          props={
            c.get('user')
              ? { seconds: 5, href: '/profile?tab=orders', label: 'Taking you to your orders' }
              : { seconds: 5, href: `/orders/${order.id}`, label: 'Taking you to your order' }
          }
        />
        <OrderCard order={order} detailed linked={false} />
        <OrderFreeEntries entries={orderFreeEntriesOf(c, order.id)} />
        {order.donation ? (
          <DonationDelivery order={order} headingId="delivery-to" />
        ) : (
          <section aria-labelledby="delivery-to" className="rounded-2xl border border-slate-200 bg-white p-5">
            <h2 id="delivery-to" className="m-0 text-lg font-bold">
              Delivery address
            </h2>
            <p className="m-0 mt-2 text-sm break-words">{order.customerName}</p>
            <p className="m-0 text-sm break-words" data-delivery-address="">
              {order.addressLines}
            </p>
          </section>
        )}
        <p className="m-0 text-sm">
          <a href={`/orders/${order.id}`} className="font-semibold text-sea-dark">
            View your order and receipt
          </a>
        </p>
        <section aria-labelledby="next-steps" className="rounded-2xl border border-slate-200 bg-white p-5">
          <h2 id="next-steps" className="m-0 text-lg font-bold">
            What's next
          </h2>
          <ol className="m-0 mt-3 grid gap-2 pl-5 text-sm text-slate-700">
            <li>We are preparing your order at our Laguna Beach store.</li>
            <li>
              {order.donation
                ? `We hand it over to ${order.donation.charity} and e-mail you when we have.`
                : local
                  ? 'Free delivery to your door within 2-3 hours.'
                  : order.shippingMethod === 'express'
                    ? 'Express shipping: 2-3 business days.'
                    : 'Standard shipping: 5-7 business days.'}
            </li>
            {!order.donation && <li>Not happy? You have a 30-day money-back guarantee.</li>}
          </ol>
        </section>
      </div>,
    );
  });
