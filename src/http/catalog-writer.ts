import type { CatalogWriter } from '../domain/catalog-admin.ts';
import type { AppContext } from './context.ts';

/** The catalogue writer for this request. */
export function catalogWriter(c: AppContext): CatalogWriter {
  const { db, clock, images } = c.get('deps');
  return { db, clock, images };
}
