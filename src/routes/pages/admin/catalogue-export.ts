import { Hono } from 'hono';
import { isProductType } from '../../../domain/catalog/catalog.ts';
import { catalogueCsv } from '../../../flows/catalogue-export.ts';
import type { AppEnv } from '../../../http/context.ts';

/** GET /admin/products.csv[?type=tshirt]: the catalogue, one row per size, behind the admin gate with the rest of /admin. */
export const catalogueExport = new Hono<AppEnv>().get('/admin/products.csv', (c) => {
  const wanted = c.req.query('type');
  const type = isProductType(wanted) ? wanted : undefined;
  const day = new Date(c.env.deps.clock.now()).toISOString().slice(0, 10);
  return c.body(catalogueCsv(c.env.deps.db, type), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="catalogue-${type ?? 'all'}-${day}.csv"`,
    'Cache-Control': 'no-store',
  });
});
