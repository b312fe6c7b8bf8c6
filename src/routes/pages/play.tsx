import { Hono } from 'hono';
import { shareCardImage } from '../../domain/catalog/share-cards.ts';
import { Island } from '../../components/Island.tsx';
import { useRenderState } from '../../components/render-context.ts';
import { defaultImageFor, findProduct, productIdOf, productLabel, productTitle, productView, type ProductView } from '../../domain/catalog/catalog.ts';
import { requiredParticipantsFor } from '../../domain/games/entry.ts';
import { currentGame, gameTakingEntries } from '../../domain/games/queries.ts';
import { PLAY_CONSENT_REQUIRED, playerSettingsView, requireMayPlay } from '../../domain/accounts/responsible-play.ts';
import { DomainError } from '../../domain/errors.ts';
import { influencerList } from '../../domain/games/views.ts';
import { formatDollars } from '../../shared/money.ts';
import { findProfile } from '../../domain/accounts/profile.ts';
import { prizeDeliveryFor } from '../../shared/prize-delivery.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import type { PlayGameProps } from '../../shared/views/games.ts';
import { productNoLongerSold, productNotFound } from './not-found.tsx';
import { GamesToJoin, PlayClosed } from './play-closed.tsx';
import { sizesToPlay, whyNoGameOfSizes } from '../../domain/games/openness.ts';
import { chooseASize } from '../../domain/inventory/variants.ts';
import { freeEntriesToUse } from '../../domain/games/free-entries.ts';

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

/** Whether the player has consented, and the server's own words when they may not enter now. */
function playStanding<E extends AppEnv>(c: AppContext<E>, userId: number): { consented: boolean; blocked: string | null } {
  const { db, clock, config } = c.env.deps;
  const consented = playerSettingsView(db, clock, userId, config.dailyEntryLimit).consented;
  try {
    requireMayPlay(db, clock, userId, config.dailyEntryLimit);
    return { consented, blocked: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { consented, blocked: error.extra?.code === PLAY_CONSENT_REQUIRED ? null : error.message };
  }
}

function playPage<E extends AppEnv>(c: AppContext<E>) {
  const { db, metrics, clock } = c.env.deps;
  const id = productIdOf(c.req.param('id'));
  const stored = id === null ? undefined : findProduct(db, id);
  if (!stored) return productNotFound(c);
  if (stored.archivedAt !== null) return productNoLongerSold(c, productLabel(stored));
  const product = productView(stored);
  const { name, subtitle } = productTitle(product);
  // A game is for one size (issue 38): a product sold in several offers them, `?size=M` names the chosen one.
  const sizes = sizesToPlay(db, product.id);
  const noGame = whyNoGameOfSizes(stored, sizes);
  if (noGame !== null) {
    return renderPage(
      c,
      { title: `Play Now: ${name} ${subtitle}`, path: `/play/${product.id}`, noindex: true },
      <PlayClosed db={db} now={clock.now()} product={product} name={`${name} ${subtitle}`} reason={noGame} />,
      { backHref: `/product/${product.id}` },
    );
  }
  const image = imageFor(product);
  const chosen = sizes.length > 1 ? sizes.find((size) => size.size === c.req.query('size')) : undefined;

  // A play joins the oldest waiting game with room (of the chosen size); a full one, a live one or none: the next one opens.
  const current = currentGame(db, product.id);
  const taking = gameTakingEntries(db, product.id, chosen?.variantId);
  const game = {
    entries: taking?.entries ?? 0,
    requiredParticipants: taking?.requiredParticipants || requiredParticipantsFor(stored.priceCents),
    live: current?.status === 'active',
    afterFull: taking?.afterFull ?? false,
  };
  const user = c.get('user');
  const profile = user ? findProfile(db, user.id) : undefined;
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
    hasCard: Boolean(profile?.gatewayCardId),
    prizeDelivery: prizeDeliveryFor(profile?.address?.postalCode),
    play: user ? playStanding(c, user.id) : { consented: false, blocked: null },
    ...(user ? { freeEntries: freeEntriesToUse(db, user.id, clock.now()) } : {}),
    ...(chosen ? { variantId: chosen.variantId } : {}),
    ...(sizes.length > 1 ? { sizes, chooseSizeMessage: chooseASize(sizes) } : {}),
  };
  return renderPage(
    c,
    {
      title: `Play Now: ${name} ${subtitle}`,
      description: `Pick 5 influencers and play for ${name} ${subtitle} (${formatDollars(product.price)}) with a $1 entry. The highest score wins it for $1.`,
      image: shareCardImage(product),
      path: `/play/${product.id}`,
    },
    <>
      <ImageFallback needed={image.fallbackImageUrl !== null} />
      <Island name="PlayGame" props={props} />
    </>,
    { backHref: `/product/${product.id}` },
  );
}

/** The Play Now page (spec section 2) at both of its paths; /play/{id} is the canonical one. /play lists the games to join. */
export const playPages = new Hono<AppEnv>()
  .get('/play', (c) =>
    renderPage(
      c,
      { title: 'Games to join', description: 'Products with a game taking entries now: join for $1 or with a free game entry.', path: '/play' },
      <GamesToJoin db={c.env.deps.db} now={c.env.deps.clock.now()} />,
    ),
  )
  .get('/play/:id', playPage)
  .get('/social-play/:id', playPage);
