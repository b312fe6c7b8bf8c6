import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { cartLines, productForCart, removeCartItem, setCartQuantity, type CartLine } from '../../domain/orders/cart.ts';
import { addToCart } from '../../flows/add-to-cart.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatCents } from '../../shared/pricing.ts';
import { checkoutDefaults } from '../../domain/orders/checkout.ts';
import { safeNextPath, type AppContext, type AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { setFlash } from '../../http/flash.ts';
import { cartOwnerOf, ensureVisitorOf } from '../../http/visitor-cart.ts';
import { renderPage } from '../../http/render.tsx';
import { formBody, idFrom, pathId } from '../../http/request.ts';
import { addToCartForm, CARD_NEEDS_JAVASCRIPT, cartCheckoutBody, cartQuantityForm, SHIPPING_METHODS } from '../../shared/schemas/cart.ts';
import { productLabel, productLines } from '../../domain/catalog/catalog.ts';
import { checkoutCart } from '../../flows/checkout-cart.ts';
import { cartShippingCents, defaultShippingFor, type ShippingMethod, totalsFor, totalsInDollars } from '../../shared/pricing.ts';
import { fieldErrorsOf } from '../../shared/schemas/field-errors.ts';
import { sizeText, withSize } from '../../shared/size-label.ts';

function CartItem({ line }: { line: CartLine }) {
  const isPrize = line.type === 'play';
  const { title, subtitle, label } = productLines(line.product);
  // Two lines of one product in two sizes: the buttons' names tell them apart.
  const name = withSize(label, line.sizeLabel);
  return (
    <li className="flex gap-3 border-b border-slate-100 py-4 last:border-0">
      <a href={`/product/${line.productId}`} className="shrink-0">
        <img src={line.product.imageUrl} alt={label} width={80} height={80} className="h-20 w-20 rounded-xl bg-slate-50 object-contain" />
      </a>
      <div className="min-w-0 flex-1">
        <p className="m-0 truncate font-semibold">{title}</p>
        <p className="m-0 truncate text-sm text-slate-600">{subtitle}</p>
        {line.sizeLabel && (
          <p className="m-0 text-sm font-semibold text-slate-800" data-size={line.sizeLabel}>
            {sizeText(line.sizeLabel)}
          </p>
        )}
        <p className="m-0 mt-1 text-sm font-bold">
          {formatCents(line.priceCents)}
          {isPrize && <span className="ml-2 rounded-full bg-coral/10 px-2 py-0.5 text-xs font-bold text-coral-dark">Prize · won for $1</span>}
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {isPrize ? (
            <span className="text-sm text-slate-600">Qty 1</span>
          ) : (
            <form method="post" action={`/cart/items/${line.id}`} className="flex items-center gap-2">
              <label htmlFor={`qty-${line.id}`} className="text-sm">
                Qty
              </label>
              <input
                id={`qty-${line.id}`}
                name="quantity"
                type="number"
                min={1}
                max={Math.max(1, line.product.stock)}
                defaultValue={line.quantity}
                className="h-9 w-16 rounded-lg border border-slate-300 px-2"
              />
              <button type="submit" className="h-9 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold cursor-pointer">
                Update<span className="sr-only"> quantity of {name}</span>
              </button>
            </form>
          )}
          <form method="post" action={`/cart/items/${line.id}/remove`}>
            <button type="submit" className="h-9 rounded-lg px-3 text-sm font-semibold text-red-700 bg-transparent border-0 cursor-pointer hover:underline">
              Remove<span className="sr-only"> {name}</span>
            </button>
          </form>
        </div>
      </div>
    </li>
  );
}

/** The cart of the signed-in shopper or of the visitor's cookie (`owner`): anyone can fill one and check out. */
function CartPage<E extends AppEnv>({ c, lines, owner }: { c: AppContext<E>; owner: number | null; lines: CartLine[] }) {
  const guest = !c.get('user');
  if (lines.length === 0 || owner === null) {
    return (
      <div className="mx-auto max-w-md pt-10 text-center">
        <h1 className="m-0 text-2xl font-extrabold">Your cart is empty</h1>
        <p className="mt-2 mb-6 text-slate-600">
          {guest ? 'Find something you love. Log in to see the cart you filled on another visit.' : 'Find something you love, or play for it for $1.'}
        </p>
        <div className="flex justify-center gap-3">
          <a href="/products" className="rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
            Continue Shopping
          </a>
          {!c.get('user') && (
            <a href="/auth?next=%2Fcart" className="rounded-full border border-slate-300 bg-white px-5 py-2.5 text-sm font-bold text-ink no-underline">
              Login
            </a>
          )}
        </div>
      </div>
    );
  }
  const { contact, config, savedCard } = checkoutDefaults(c.env.deps.db, c.env.deps.config, owner);
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_26rem]">
      <section aria-labelledby="cart-items" className="self-start rounded-2xl border border-slate-200 bg-white px-4 sm:px-6">
        <h1 id="cart-items" className="m-0 pt-5 text-2xl font-extrabold">
          Cart
        </h1>
        <ul className="m-0 list-none p-0">
          {lines.map((line) => (
            <CartItem key={line.id} line={line} />
          ))}
        </ul>
        <p className="m-0 pb-5">
          <a href="/products" className="text-sm font-semibold text-sea-dark">
            Continue Shopping
          </a>
        </p>
      </section>
      <section aria-label="Checkout" className="self-start rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
        {guest && (
          <p data-guest-checkout="" className="m-0 mb-5 rounded-xl bg-slate-50 p-3 text-sm text-slate-700">
            {'Checking out as a guest: your receipt and a link to your order go to the e-mail you enter. '}
            <a href="/auth?next=%2Fcart" className="font-semibold text-sea-dark">
              Log in
            </a>
            {' to use your saved details; your cart comes with you.'}
          </p>
        )}
        <Island
          name="CartCheckout"
          props={{
            lines: lines.map((l) => ({ id: l.id, productId: l.productId, quantity: l.quantity, priceCents: l.priceCents, type: l.type })),
            customer: {
              fullName: contact.name,
              email: contact.email,
              phone: contact.phone,
              address: contact.line1,
              address2: contact.line2,
              city: contact.city,
              state: contact.state,
              zipCode: contact.postalCode,
            },
            config,
            savedCard,
          }}
        />
      </section>
    </div>
  );
}

function back<E extends AppEnv>(c: AppContext<E>, fallback: string) {
  return c.redirect(safeNextPath(c.req.query('next') ?? fallback), 303);
}

/** A refused cart form: the reason as a toast, back where the shopper was. */
const refusedForm = (title: string, fallback: string) => (c: AppContext, error: DomainError) => {
  setFlash(c, { title, description: error.message, variant: 'destructive' });
  return back(c, fallback);
};

/** The cart page (spec section 2) and its forms, which work without JavaScript. */
function RemovePrizeStep({ line }: { line: CartLine }) {
  const name = withSize(productLabel(line.product), line.sizeLabel);
  return (
    <section aria-labelledby="remove-prize-title" className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-6">
      <h1 id="remove-prize-title" className="m-0 text-xl font-extrabold">
        Remove prize from cart?
      </h1>
      <p className="mt-3 text-sm text-slate-700">
        {`${name} stays yours: it waits on My Games as a prize to claim, and you can put it back in your cart or donate it there. Unclaimed prizes are kept for 7 days after the game.`}
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <a href="/cart" className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline">
          Keep in Cart
        </a>
        <form method="post" action={`/cart/items/${line.id}/remove`}>
          <input type="hidden" name="confirmed" value="yes" />
          <button type="submit" className="cursor-pointer rounded-lg border-0 bg-ink px-4 py-2 text-sm font-bold text-white">
            Yes, Remove
          </button>
        </form>
      </div>
    </section>
  );
}

export const cartPages = new Hono<AppEnv>()
  .get('/cart', (c) => {
    // Open to everyone (issue 27): the checkout form asks for what the chosen payment needs, nothing is required first.
    const owner = cartOwnerOf(c);
    const lines = owner === null ? [] : cartLines(c.env.deps.db, owner);
    const page = renderPage(c, { title: 'Cart', path: '/cart', noindex: true }, <CartPage c={c} lines={lines} owner={owner} />);
    page.headers.set('Cache-Control', 'private, no-store');
    return page;
  })
  .post('/cart/add', formBody(addToCartForm, refusedForm('Could not add to cart', '/products')), (c) => {
    const { productId, variantId, next: wanted } = c.req.valid('form');
    const next = safeNextPath(wanted ?? `/product/${productId}`);
    try {
      // A visitor's first add makes their guest cart, once the product can go in one.
      const owner = cartOwnerOf(c) ?? (productForCart(c.env.deps.db, { productId, variantId }) && ensureVisitorOf(c));
      addToCart(c.env.deps.db, c.env.deps.clock, owner, { productId, variantId });
      setFlash(c, { title: 'Added to cart', description: 'The product is in your cart.' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Could not add to cart', description: error.message, variant: 'destructive' });
    }
    return c.redirect(next, 303);
  })
  .post('/cart/items/:id', idFrom('Cart item'), formBody(cartQuantityForm, refusedForm('Could not change the quantity', '/cart')), (c) => {
    const owner = cartOwnerOf(c);
    if (owner === null) return c.redirect('/cart', 303);
    try {
      setCartQuantity(c.env.deps.db, owner, pathId(c), c.req.valid('form').quantity);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Could not change the quantity', description: error.message, variant: 'destructive' });
    }
    return back(c, '/cart');
  })
  .post('/cart/checkout', async (c) => {
    // The cart's checkout form without JavaScript: cash on delivery completes; a card needs the script.
    const owner = cartOwnerOf(c);
    if (owner === null) return c.redirect('/cart', 303);
    const form = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    const text = (key: string) => (typeof form[key] === 'string' ? (form[key] as string) : '');
    if (text('paymentMethod') !== 'cod') {
      setFlash(c, { title: 'Checkout failed', description: CARD_NEEDS_JAVASCRIPT, variant: 'destructive' });
      return c.redirect('/cart', 303);
    }
    const { db, clock, gateway } = c.env.deps;
    const lines = cartLines(db, owner);
    const method = (SHIPPING_METHODS as readonly string[]).includes(text('shippingMethod'))
      ? (text('shippingMethod') as ShippingMethod)
      : defaultShippingFor(text('zipCode'));
    const checked = cartCheckoutBody.safeParse({
      paymentMethod: 'cod',
      items: lines.map((line) => ({ id: line.id, quantity: line.quantity })),
      shipping: { method },
      summary: totalsInDollars(totalsFor(lines, cartShippingCents(lines, method))),
      customer: {
        fullName: text('fullName'),
        email: text('email'),
        phone: text('phone'),
        address: text('address'),
        address2: text('address2'),
        city: text('city'),
        state: text('state'),
        zipCode: text('zipCode'),
      },
    });
    try {
      if (!checked.success) throw new DomainError(400, Object.values(fieldErrorsOf(checked.error))[0] ?? 'Check your shipping details.');
      const { orderId } = await checkoutCart({ db, clock, gateway }, owner, checked.data, clientIp(c));
      setFlash(c, { title: 'Order placed', description: 'Thank you! Your order has been placed.' });
      return c.redirect(`/order-confirmation/${orderId}`, 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Checkout failed', description: Object.values(error.fields ?? {})[0] ?? error.message, variant: 'destructive' });
      return c.redirect('/cart', 303);
    }
  })
  .post('/cart/items/:id/remove', idFrom('Cart item'), async (c) => {
    const owner = cartOwnerOf(c);
    if (owner === null) return c.redirect('/cart', 303);
    const line = cartLines(c.env.deps.db, owner).find((l) => l.id === pathId(c));
    const confirmed = (await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)).confirmed === 'yes';
    if (line?.type === 'play' && !confirmed) {
      // A prize asks first: removing it does not lose it, but the shopper should know where it goes.
      return renderPage(c, { title: 'Remove prize from cart?', path: '/cart', noindex: true }, <RemovePrizeStep line={line} />, { backHref: '/cart' });
    }
    try {
      removeCartItem(c.env.deps.db, owner, pathId(c));
      setFlash(
        c,
        line?.type === 'play'
          ? { title: 'Prize removed from cart', description: 'It is still yours: claim it again from My Games.' }
          : { title: 'Removed from cart', description: 'The item is no longer in your cart.' },
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Could not remove the item', description: error.message, variant: 'destructive' });
    }
    return back(c, '/cart');
  });
