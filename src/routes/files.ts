import { Hono, type Context } from 'hono';
import { defaultImageFor, findProduct, isProductType, productView } from '../domain/catalog/catalog.ts';
import { shareCardKey, shareCardPath } from '../domain/catalog/share-cards.ts';
import type { AppEnv } from '../http/context.ts';
import { projectFile } from '../runtime-files.ts';
import { acceptsGzip } from '../http/accept-encoding.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const STATIC = 'public, max-age=86400';

/** Only plain relative names: nothing a visitor sends can climb out of the folder. */
function safeRelative(path: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (!decoded || decoded.includes('\0') || decoded.includes('\\')) return null;
  const parts = decoded.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
  return decoded;
}

function fileResponse(file: Blob, cacheControl: string): Response {
  return new Response(file, {
    headers: { 'Content-Type': file.type, 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' },
  });
}

/** Built assets never change under one name, so each is compressed once and kept. */
const gzippedAssets = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

async function assetResponse(c: Context<AppEnv>, relative: string, file: Blob): Promise<Response> {
  const compressible = /\.(js|css|svg|json)$/.test(relative);
  if (!compressible || !acceptsGzip(c.req.header('accept-encoding'))) return fileResponse(file, IMMUTABLE);
  let gzip = gzippedAssets.get(relative);
  if (!gzip) {
    gzip = file.bytes().then((bytes) => Bun.gzipSync(bytes) as Uint8Array<ArrayBuffer>);
    gzippedAssets.set(relative, gzip);
  }
  return new Response(await gzip, {
    headers: {
      'Content-Type': file.type,
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
      'Cache-Control': IMMUTABLE,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * A product image that is missing answers with the default image of the type named in
 * `?fallback=` (spec section 8: broken product images fall back), never cached for long.
 */
function fallbackOr404(c: Context<AppEnv>) {
  const type = c.req.query('fallback');
  const fallback = isProductType(type) ? projectFile(defaultImageFor(type).slice(1)) : null;
  return fallback ? fileResponse(fallback, 'no-cache') : c.notFound();
}

function serve(folder: string, cacheControl: string) {
  return (c: Context<AppEnv>) => {
    const relative = safeRelative(c.req.path.replace(/^\/[^/]+\//, ''));
    const file = relative ? projectFile(`${folder}/${relative}`) : null;
    return file ? fileResponse(file, cacheControl) : fallbackOr404(c);
  };
}

/** Hashed build output (cached for a year), uploads, the static folder and the favicon. */
export const fileRoutes = new Hono<AppEnv>()
  .get('/assets/*', (c) => {
    const relative = safeRelative(c.req.path.slice('/assets/'.length));
    const file = relative ? projectFile(`dist/assets/${relative}`) : null;
    return file ? assetResponse(c, relative!, file) : c.notFound();
  })
  .get('/static/*', serve('static', STATIC))
  .get('/uploads/:name', (c) => {
    // Upload names are generated and never reused, so they can be cached for good.
    const path = c.env.deps.images.fileFor(`/uploads/${c.req.param('name')}`);
    const file = path ? Bun.file(path) : null;
    return file && c.env.deps.images.exists(`/uploads/${c.req.param('name')}`) ? fileResponse(file, IMMUTABLE) : fallbackOr404(c);
  })
  .get('/share/product/:file', async (c) => {
    // A card's name carries the version of the product it shows: an old name moves on to the current card.
    const match = /^(\d{1,9})-([a-z0-9]{1,16})\.png$/.exec(c.req.param('file'));
    const stored = match ? findProduct(c.env.deps.db, Number(match[1])) : undefined;
    if (!match || !stored) return c.notFound();
    const product = productView(stored);
    if (match[2] !== shareCardKey(product)) {
      c.header('Cache-Control', 'no-cache');
      return c.redirect(shareCardPath(product), 302);
    }
    return fileResponse(Bun.file(await c.env.deps.shareCards.fileFor(product)), IMMUTABLE);
  })
  .get('/apple-touch-icon.png', (c) => c.redirect('/static/apple-touch-icon.png', 301))
  .get('/favicon.ico', (c) => c.redirect('/static/favicon.svg', 301));
