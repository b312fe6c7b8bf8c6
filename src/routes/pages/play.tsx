import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { useRenderState } from '../../components/render-context.ts';
import { defaultImageFor, findProduct, productIdOf, productTitle, productView, type ProductView } from '../../domain/catalog.ts';
import { requiredParticipantsFor } from '../../domain/games/entry.ts';
import { currentGame } from '../../domain/games/queries.ts';
import { influencerList } from '../../domain/games/views.ts';
import { formatDollars } from '../../domain/money.ts';
import { findProfile } from '../../domain/profile.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import type { PlayGameProps } from '../../islands/PlayGame.tsx';

/** The image as ProductImage shows it: local images fall back on the server, others in the browser. */
function imageFor(product: ProductView): Pick<PlayGameProps['product'], 'imageUrl' | 'fallbackImageUrl'> {
  const url = product.imageUrl;
  const local = url.startsWith('/');
  if (!local) return { imageUrl: url, fallbackImageUrl: url.startsWith('data:') ? null : defaultImageFor(product.productType) };
  if (url.startsWith('/static/images/defaults/')) return { imageUrl: url, fallbackImageUrl: null };
  return { imageUrl: `${url}${url.includes('?') ? '&' : '?'}fallback=${product.productType}`, fallbackImageUrl: null };
}

/** Asks for the small fallback script when the island shows an image from another site. */
function ImageFallback({ needed }: { needed: boolean }) {
  const state = useRenderState();
  if (needed) state.needsImageFallback = true;
  return null;
}

function notFoundView(c: AppContext) {
  return renderPage(
    c,
    { title: 'Product Not Found', path: new URL(c.req.url).pathname, noindex: true },
    <div className="mx-auto max-w-md pt-12 text-center">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="m-0 text-2xl font-extrabold">Product Not Found</h1>
        <p className="mt-3 mb-6 text-slate-600">The product you're looking for doesn't exist or has been removed.</p>
        <a href="/products" className="inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
          Go Back
        </a>
      </div>
    </div>,
    { status: 404, backHref: '/products' },
  );
}

function playPage(c: AppContext) {
  const { db, metrics, clock } = c.var.deps;
  const id = productIdOf(c.req.param('id'));
  const stored = id === null ? undefined : findProduct(db, id);
  if (!stored) return notFoundView(c);
  const product = productView(stored);
  const { name, subtitle } = productTitle(product);
  const image = imageFor(product);

  // A play joins the waiting game; when the current one is live or over, it opens the next.
  const current = currentGame(db, product.id);
  const waiting = current?.status === 'waiting' ? current : null;
  const game = {
    entries: waiting?.entries ?? 0,
    requiredParticipants: waiting?.requiredParticipants ?? requiredParticipantsFor(stored.priceCents),
    live: current?.status === 'active',
  };
  const user = c.var.user;
  const props: PlayGameProps = {
    product: {
      id: product.id,
      brand: name,
      subtitle,
      price: product.price,
      ...image,
      playEnabled: product.playEnabled,
      quantity: product.quantity,
    },
    game,
    influencers: influencerList(db, metrics, clock.now()),
    signedIn: user !== null,
    hasCard: user ? Boolean(findProfile(db, user.id)?.gatewayCardId) : false,
  };
  return renderPage(
    c,
    {
      title: `Play Now: ${name} ${subtitle}`,
      description: `Pick 5 influencers and play for ${name} ${subtitle} (${formatDollars(product.price)}) with a $1 entry. The highest score wins it for $1.`,
      image: product.imageUrl,
      path: `/play/${product.id}`,
    },
    <>
      <ImageFallback needed={image.fallbackImageUrl !== null} />
      <Island name="PlayGame" props={props} />
    </>,
    { backHref: `/product/${product.id}` },
  );
}

/** The Play Now page (spec section 2) at both of its paths; /play/{id} is the canonical one. */
export const playPages = new Hono<AppEnv>().get('/play/:id', playPage).get('/social-play/:id', playPage);
