import type { CatalogWriter } from '../domain/catalog/catalog-admin.ts';
import type { GameDeps } from '../domain/games/entry.ts';
import type { ProductRemovalDeps } from '../flows/end-product.ts';
import type { AppContext, AppDeps, AppEnv } from './context.ts';

/* The domain's dependencies out of the app's, for a request (or, for the jobs, the process). */

/** The game rules' dependencies: for the routes, the live stream and the process's jobs. */
export function gameDepsOf({ db, clock, gateway, metrics, config }: Pick<AppDeps, 'db' | 'clock' | 'gateway' | 'metrics' | 'config'>): GameDeps {
  return { db, clock, gateway, metrics, dailyEntryLimit: config.dailyEntryLimit };
}

export const gameDeps = <E extends AppEnv>(c: AppContext<E>): GameDeps => gameDepsOf(c.env.deps);

/** The catalogue writer for this request. */
export function catalogWriter<E extends AppEnv>(c: AppContext<E>): CatalogWriter {
  const { db, clock, images } = c.env.deps;
  return { db, clock, images };
}

/** Removing a product may void holds (flows/end-product.ts): the catalogue writer and the gateway. */
export function productRemovalDeps<E extends AppEnv>(c: AppContext<E>): ProductRemovalDeps {
  return { ...catalogWriter(c), gateway: c.env.deps.gateway };
}
