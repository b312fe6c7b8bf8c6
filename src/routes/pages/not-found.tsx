import type { AppContext, AppEnv } from '../../http/context.ts';
import { currentPath, renderPage } from '../../http/render.tsx';

/** The card every 'not found' page shows: a heading, a line, and one way back. */
function NotFoundCard({ heading, text, href, link }: { heading: string; text: string; href: string; link: string }) {
  return (
    <div className="mx-auto max-w-md pt-12 text-center">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="m-0 text-2xl font-extrabold text-ink">{heading}</h1>
        <p className="mt-3 mb-6 text-slate-600">{text}</p>
        <a href={href} className="inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
          {link}
        </a>
      </div>
    </div>
  );
}

/** Any unknown path: the spec's exact texts, status 404. API paths answer JSON instead. */
export function notFound<E extends AppEnv>(c: AppContext<E>) {
  if (c.req.path.startsWith('/api/')) return c.json({ message: 'Not found' }, 404);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('Not found', 404);
  return renderPage(
    c,
    { title: 'Page Not Found', path: currentPath(c), noindex: true },
    <NotFoundCard heading="404 Page Not Found" text="Did you forget to add the page to the router?" href="/" link="Back to Home" />,
    { status: 404 },
  );
}

/**
 * A product that does not exist (or was removed), status 404: from its page and the play page
 * back to the shop; from the checkout, with the checkout's own words (spec section 2).
 */
export function productNotFound<E extends AppEnv>(c: AppContext<E>, from: 'product' | 'checkout' = 'product') {
  const card =
    from === 'checkout'
      ? { text: "We couldn't find the product you're looking for.", href: '/', link: 'Return to Shop' }
      : { text: "The product you're looking for doesn't exist or has been removed.", href: '/products', link: 'Go Back' };
  return renderPage(
    c,
    { title: 'Product Not Found', path: from === 'checkout' ? '/checkout' : new URL(c.req.url).pathname, noindex: true },
    <NotFoundCard heading="Product Not Found" {...card} />,
    from === 'checkout' ? { status: 404 } : { status: 404, backHref: '/products' },
  );
}

/**
 * An archived product (issue 27): no longer sold, so its pages answer 404 like a removed one,
 * but say what happened to it by name rather than that it never existed.
 */
export function productNoLongerSold<E extends AppEnv>(c: AppContext<E>, label: string) {
  return renderPage(
    c,
    { title: 'No Longer Sold', path: new URL(c.req.url).pathname, noindex: true },
    <NotFoundCard heading="No Longer Sold" text={`${label} is no longer sold in the shop.`} href="/products" link="Browse the Shop" />,
    { status: 404, backHref: '/products' },
  );
}

/** An order that is not there, or not this shopper's (the same answer for both), status 404. */
/** An order link whose key does not open that order, for someone signed out: the receipt's link again, or signing in (no dead end). */
export function orderLinkNotValid<E extends AppEnv>(c: AppContext<E>, next: string) {
  return renderPage(
    c,
    { title: 'Order Not Found', path: '/profile', noindex: true },
    <NotFoundCard
      heading="Order Not Found"
      text="This link does not open an order. Open the link in your receipt e-mail exactly as it was sent, or log in to see your orders."
      href={`/auth?next=${encodeURIComponent(next)}`}
      link="Log in"
    />,
    { status: 404 },
  );
}

export function orderNotFound<E extends AppEnv>(c: AppContext<E>) {
  return renderPage(
    c,
    { title: 'Order Not Found', path: '/profile', noindex: true },
    <NotFoundCard heading="Order Not Found" text="We couldn't find that order." href="/profile?tab=orders" link="My Orders" />,
    { status: 404 },
  );
}
