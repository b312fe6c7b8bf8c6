import { Hono, type Context } from 'hono';
import { defaultImageFor, isProductType } from '../domain/catalog.ts';
import type { AppEnv } from '../http/context.ts';
import { projectFile } from '../runtime-files.ts';

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
  .get('/assets/*', serve('dist/assets', IMMUTABLE))
  .get('/static/*', serve('static', STATIC))
  .get('/uploads/:name', (c) => {
    // Upload names are generated and never reused, so they can be cached for good.
    const path = c.var.deps.images.fileFor(`/uploads/${c.req.param('name')}`);
    const file = path ? Bun.file(path) : null;
    return file && c.var.deps.images.exists(`/uploads/${c.req.param('name')}`) ? fileResponse(file, IMMUTABLE) : fallbackOr404(c);
  })
  .get('/favicon.ico', (c) => c.redirect('/static/favicon.svg', 301));
