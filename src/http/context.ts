import type { Server } from 'bun';
import type { Context } from 'hono';
import type { AssetManifest } from '../assets.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Session, User } from '../domain/accounts/sessions.ts';
import type { AccountLimits } from '../domain/accounts/account-limits.ts';
import type { Clock } from '../domain/clock.ts';
import type { PasswordHasher } from '../domain/accounts/passwords.ts';
import type { ImageStore } from '../domain/catalog/images.ts';
import type { ShareCardStore } from '../domain/catalog/share-cards.ts';
import type { PaymentGateway } from '../domain/payments/gateway.ts';
import type { MetricsSource } from '../domain/games/metrics.ts';
import type { PageCache } from './page-cache.ts';
import type { SharedPage } from './shared-page.ts';
import type { Telemetry } from '../telemetry.ts';
import type { Lifecycle } from './lifecycle.ts';

/** Everything the routes need, built once by the process entry (or a test) and passed to createApp. */
export interface AppDeps {
  db: Db;
  config: Config;
  clock: Clock;
  manifest: AssetManifest;
  adminPin: string;
  limits: AccountLimits;
  passwords: PasswordHasher;
  images: ImageStore;
  /** The PNG pictures of shared product links. */
  shareCards: ShareCardStore;
  pageCache: PageCache;
  gateway: PaymentGateway;
  metrics: MetricsSource;
  /** Runs every due job now (the manual clock's route uses it). */
  runJobs: () => Promise<void>;
  /** Prometheus metrics of this process (GET /metrics). */
  telemetry: Telemetry;
  /** This process's name in the jobs lease row (/readyz says whether it runs the jobs). */
  jobsHolder: string;
  /** Serving or draining (SIGTERM): /readyz fails while draining. */
  lifecycle: Lifecycle;
}

/**
 * What the request's observer (observe.ts) hands the app with each request, outside Hono's
 * middleware chain: the dependencies, the request's id and path, the Bun server (hono/bun's
 * getConnInfo reads `server`), and the signed-in user's id for the request's log line.
 */
export interface RequestEnv {
  server: Server<undefined> | undefined;
  deps: AppDeps;
  requestId: string;
  /** The path Hono routes by (its own getPath, computed once). */
  path: string;
  /** Set by the session middleware; the log line and the gateway's log lines read it. */
  userId: number | null;
}

export interface AppEnv {
  Bindings: RequestEnv;
  Variables: {
    user: User | null;
    session: Session | null;
    /** The signed-in user's viewer version (viewer_versions), read with the session. */
    viewerVersion: number;
    /** The page the route rendered, for the page cache (render.tsx). */
    renderedPage: SharedPage | undefined;
  };
}

/**
 * A request's context. Helpers take `AppContext<E>` with `E extends AppEnv`: Hono's Context is
 * invariant in its env, and a route behind a sign-in guard has a context that knows more
 * (guards.ts, SignedInEnv), which a plain Context<AppEnv> parameter would refuse.
 */
export type AppContext<E extends AppEnv = AppEnv> = Context<E>;

export { safeNextPath } from '../shared/safe-next-path.ts';
