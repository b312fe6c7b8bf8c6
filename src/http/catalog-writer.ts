import type { CatalogWriter } from '../domain/catalog-admin.ts';
import type { AppContext } from './context.ts';

/** The catalogue writer for this request: domain writes that also drop the cached pages. */
export function catalogWriter(c: AppContext): CatalogWriter {
  const { db, clock, images, pageCache } = c.var.deps;
  return { db, clock, images, changed: () => pageCache.clear() };
}
