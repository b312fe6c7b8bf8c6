import { Hono, type MiddlewareHandler } from 'hono';
// What each kind of payment row means, registered once with the money engine before anything runs.
import './flows/payment-purposes.ts';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { noteStorageFailure, STORAGE_FULL_MESSAGE } from './domain/operations/disk-state.ts';
import { DomainError } from './domain/errors.ts';
import { setFlash } from './http/flash.ts';
import { currentPath } from './http/render.tsx';
import { MAX_IMAGE_BYTES } from './domain/catalog/images.ts';
import type { AppDeps, AppEnv, RequestEnv } from './http/context.ts';
import { limitPublicForms } from './http/guards.ts';
import { cacheJsonForVisitors, noteWrites } from './http/page-cache-middleware.ts';
import { answerVisitorsFirst } from './http/page-cache-visitors.ts';
import { answerSignedInFirst } from './http/page-cache-signed-in.ts';
import { observeRequests } from './http/observe.ts';
import { errorFields, log } from './log.ts';
import { serverErrorPage } from './routes/pages/server-error.tsx';
import { csrfProtection, personalJsonIsPrivate, securityHeaders } from './http/security.ts';
import { SharedTrieRouter } from './http/shared-trie-router.ts';
import { hostChecker } from './http/host-header.ts';
import { getPath } from 'hono/utils/url';
import { cacheRoutes } from './http/route-cache.ts';
import { loadSession } from './http/session-cookie.ts';
import { adminApi } from './routes/api/admin.ts';
import { adminOrdersApi } from './routes/api/admin-orders.ts';
import { adminAuctionsApi } from './routes/api/admin-auctions.ts';
import { auctionsApi } from './routes/api/auctions.ts';
import { teamsApi } from './routes/api/teams.ts';
import { afterSaleApi } from './routes/api/aftersale.ts';
import { authApi } from './routes/api/auth.ts';
import { businessApi } from './routes/api/business.ts';
import { coachApi } from './routes/api/coach.ts';
import { cartApi } from './routes/api/cart.ts';
import { checkoutApi } from './routes/api/checkout.ts';
import { notificationsApi } from './routes/api/notifications.ts';
import { ordersApi } from './routes/api/orders.ts';
import { mysteryBoxesApi } from './routes/api/mystery-boxes.ts';
import { profileApi } from './routes/api/profile.ts';
import { squareApi } from './routes/api/square.ts';
import { eventsApi } from './routes/api/events.ts';
import { competitionApi } from './routes/api/competition.ts';
import { gamesApi } from './routes/api/games.ts';
import { influencersApi } from './routes/api/influencers.ts';
import { paymentsApi } from './routes/api/payments.ts';
import { freeEntriesApi } from './routes/api/free-entries.ts';
import { playsApi } from './routes/api/plays.ts';
import { testClockApi } from './routes/api/test-clock.ts';
import { playSettingsApi } from './routes/api/play-settings.ts';
import { productsApi } from './routes/api/products.ts';
import { fileRoutes } from './routes/files.ts';
import { answerPingFirst, healthRoutes } from './routes/health.ts';
import { adminPages } from './routes/pages/admin/index.tsx';
import { authPages } from './routes/pages/auth.tsx';
import { businessPages } from './routes/pages/business-portal.tsx';
import { cartPages } from './routes/pages/cart.tsx';
import { checkoutPages } from './routes/pages/checkout.tsx';
import { marketingPages } from './routes/pages/marketing/index.tsx';
import { profilePages } from './routes/pages/profile.tsx';
import { catalogPages } from './routes/pages/catalog.tsx';
import { auctionPages } from './routes/pages/auctions.tsx';
import { notFound } from './routes/pages/not-found.tsx';
import { playPages } from './routes/pages/play.tsx';
import { productPages } from './routes/pages/product.tsx';
import { teamPages } from './routes/pages/team.tsx';
import { scoreboardPages } from './routes/pages/scoreboard.tsx';
import { gameRecordPages } from './routes/pages/game-record.tsx';
import { orderPages } from './routes/pages/orders.tsx';
import { mysteryPages } from './routes/pages/mystery.tsx';
import { accountPages } from './routes/pages/account.tsx';
import { signInUnlockPages } from './routes/pages/sign-in-unlock.tsx';
import { confirmEmailPages } from './routes/pages/confirm-email.tsx';
import { accountApi } from './routes/api/account.ts';
import { seoRoutes } from './routes/seo.ts';

const JSON_BODY_LIMIT = 64 * 1024;
/** Product forms carry one image of at most 5 MB; a little more lets the domain say so clearly. */
const UPLOAD_BODY_LIMIT = MAX_IMAGE_BYTES + 2 * 1024 * 1024;

const tooLarge = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: (c) => c.json({ message: 'The request body is too large.' }, 413),
});
const uploadTooLarge = bodyLimit({
  maxSize: UPLOAD_BODY_LIMIT,
  onError: (c) => {
    const message = 'The image must be 5 MB or smaller.';
    if (c.req.path.startsWith('/api/')) return c.json({ message, fields: { image: message } }, 413);
    // An admin form: back to the form with the reason.
    setFlash(c, { title: 'Upload too large', description: message, variant: 'destructive' });
    return c.redirect(currentPath(c), 303);
  },
});
const takesUploads = (path: string) => path.startsWith('/api/products') || path.startsWith('/admin/');
// A GET or HEAD has no body to limit.
const limitBodies: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : (takesUploads(c.req.path) ? uploadTooLarge : tooLarge)(c, next);

/** Builds the whole HTTP app from its dependencies; no I/O happens here. */
export function createApp(deps: AppDeps): App {
  // The path comes with the request's env (observe.ts computes it once, with Hono's own getPath).
  // A TrieRouter straight away: Hono's default SmartRouter would first build a RegExpRouter,
  // which refuses this app's routes (route-cache.ts), on every app's first request (3 ms; tests
  // build hundreds of apps); and one trie for apps with the same routes (shared-trie-router.ts).
  const app = new Hono<AppEnv>({
    router: new SharedTrieRouter(),
    getPath: (request, options) => (options?.env as RequestEnv | undefined)?.path ?? getPath(request),
  });

  app.onError((error, c) => {
    if (error instanceof DomainError) {
      return c.json({ message: error.message, ...(error.fields ? { fields: error.fields } : {}), ...(error.extra ?? {}) }, error.status);
    }
    if (error instanceof HTTPException) {
      // Hono's validator says 'Malformed JSON in request body'; ours says it the store's way.
      const message = error.status === 400 && error.message.startsWith('Malformed JSON') ? 'The request body is not valid JSON.' : error.message;
      if (c.req.path.startsWith('/api/')) return c.json({ message: message || 'Request refused.' }, error.status);
      return error.getResponse();
    }
    const wantsPage = !c.req.path.startsWith('/api/') && c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
    // A full disk: the same for every write until it has room, logged once (disk-state.ts), not a stack per request.
    if (noteStorageFailure(c.env.deps.db, error)) {
      c.header('Retry-After', '30');
      return wantsPage ? serverErrorPage(c, { status: 503, message: STORAGE_FULL_MESSAGE }) : c.json({ message: STORAGE_FULL_MESSAGE }, 503);
    }
    log.error(
      { event: 'request_failed', reqId: c.env.requestId, method: c.req.method, path: c.req.path, ...errorFields(error) },
      `${c.req.method} ${c.req.path} failed`,
    );
    if (wantsPage) return serverErrorPage(c);
    return c.json({ message: 'Something went wrong on our side. Please try again.', requestId: c.env.requestId }, 500);
  });

  app.route('/', fileRoutes);
  app.route('/', healthRoutes);

  app.use(csrfProtection);
  app.use(limitBodies);

  // The catalogue's JSON for visitors comes from the page cache when it can (its pages too:
  // their routes say how, with cachePages).
  app.use(noteWrites);
  app.use('/api/products', cacheJsonForVisitors);
  app.use(loadSession);
  app.use('/api/*', personalJsonIsPrivate);

  for (const path of ['/api/business-applications', '/business-portal', '/api/coach/signups', '/coach/signup']) app.use(path, limitPublicForms);

  app.route('/api', authApi);
  app.route('/api', accountApi);
  app.route('/api', productsApi);
  app.route('/api', adminApi);
  app.route('/api', adminOrdersApi);
  app.route('/api', adminAuctionsApi);
  app.route('/api', auctionsApi);
  app.route('/api', teamsApi);
  app.route('/api', afterSaleApi);
  app.route('/api', profileApi);
  app.route('/api', cartApi);
  app.route('/api', checkoutApi);
  app.route('/api', ordersApi);
  app.route('/api', mysteryBoxesApi);
  app.route('/api', notificationsApi);
  app.route('/api', squareApi);
  app.route('/api', influencersApi);
  app.route('/api', playsApi);
  app.route('/api', paymentsApi);
  app.route('/api', freeEntriesApi);
  app.route('/api', competitionApi);
  app.route('/api', gamesApi);
  app.route('/api', eventsApi);
  app.route('/api', playSettingsApi);
  app.route('/api', businessApi);
  app.route('/api', coachApi);
  if (deps.config.clock === 'manual') app.route('/api', testClockApi);
  app.route('/', seoRoutes);
  app.route('/', authPages);
  app.route('/', accountPages);
  app.route('/', signInUnlockPages);
  app.route('/', confirmEmailPages);
  app.route('/', catalogPages);
  app.route('/', auctionPages);
  app.route('/', productPages);
  app.route('/', teamPages);
  app.route('/', playPages);
  app.route('/', scoreboardPages);
  app.route('/', gameRecordPages);
  app.route('/', adminPages);
  app.route('/', profilePages);
  app.route('/', cartPages);
  app.route('/', checkoutPages);
  app.route('/', orderPages);
  app.route('/', mysteryPages);
  app.route('/', businessPages);
  app.route('/', marketingPages);

  app.notFound(notFound);
  const routeOf = cacheRoutes(app);
  // Around the app, so the log line and the metrics see every answer (the page cache's, the 404s,
  // a refused Host); it hands the app its dependencies and the request's id, compresses, and sets
  // the security headers. The Host check comes before the router: every path and URL above comes
  // from a URL that parses (host-header.ts).
  // Visitors' cached answers come before the router (page-cache-visitors.ts), and shoppers' (page-cache-signed-in.ts).
  // /ping too, and those answers carry their security headers from the start (sealed-answers.ts).
  const seal = securityHeaders(deps.config);
  app.fetch = observeRequests(answerPingFirst(seal, answerVisitorsFirst(deps, seal, answerSignedInFirst(deps, seal, app.fetch))), deps, {
    routeOf,
    checkHost: hostChecker(),
    compress: compress(),
    securityHeaders: seal,
  });
  return app as unknown as App;
}

/** The app as the server calls it: its fetch takes the Bun server (app.request() passes nothing). */
export type App = Omit<Hono<AppEnv>, 'fetch' | 'request'> & {
  fetch: (request: Request, server?: unknown) => Response | Promise<Response>;
  request: (input: string | URL | Request, init?: RequestInit, server?: unknown) => Response | Promise<Response>;
};
