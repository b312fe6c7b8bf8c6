import { Hono } from 'hono';
import { listProducts, productTypes } from '../domain/catalog/catalog.ts';
import type { AppEnv } from '../http/context.ts';

/** Public pages listed in the sitemap besides the products. */
const PUBLIC_PAGES = [
  '/',
  '/products',
  ...productTypes.map((t) => `/products?type=${t}`),
  '/auctions',
  '/scoreboard',
  '/welcome',
  '/tutorial',
  '/rules',
  '/sunglass-gallery',
  '/mystery',
  '/business-portal',
  '/coach',
];

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** robots.txt and sitemap.xml, with absolute URLs from PUBLIC_URL. */
export const seoRoutes = new Hono<AppEnv>()
  .get('/robots.txt', (c) => {
    const base = c.env.deps.config.publicUrl;
    c.header('Cache-Control', 'public, max-age=86400');
    return c.text(
      `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\nDisallow: /profile\nDisallow: /cart\nDisallow: /checkout\nDisallow: /order-confirmation/\n\nSitemap: ${base}/sitemap.xml\n`,
    );
  })
  .get('/sitemap.xml', (c) => {
    const base = c.env.deps.config.publicUrl;
    const urls = [
      ...PUBLIC_PAGES.map((path) => `  <url><loc>${xmlEscape(base + path)}</loc></url>`),
      ...listProducts(c.env.deps.db, { sort: 'newest' }).map(
        (p) => `  <url><loc>${base}/product/${p.id}</loc><lastmod>${new Date(p.createdAt).toISOString().slice(0, 10)}</lastmod></url>`,
      ),
    ];
    c.header('Content-Type', 'application/xml; charset=UTF-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
  });
