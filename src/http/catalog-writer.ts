import type { CatalogWriter } from '../domain/catalog-admin.ts';
import type { AppContext, AppEnv } from './context.ts';

/** The catalogue writer for this request. */
export function catalogWriter<E extends AppEnv>(c: AppContext<E>): CatalogWriter {
  const { db, clock, images } = c.get('deps');
  return { db, clock, images };
}
