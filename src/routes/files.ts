import { Hono } from 'hono';
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

function serve(folder: string, cacheControl: string) {
  return async (c: import('hono').Context<AppEnv>) => {
    const relative = safeRelative(c.req.path.replace(/^\/[^/]+\//, ''));
    const file = relative ? projectFile(`${folder}/${relative}`) : null;
    if (!file) return c.notFound();
    return new Response(file, {
      headers: {
        'Content-Type': file.type,
        'Cache-Control': cacheControl,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  };
}

/** Hashed build output (cached for a year), the static folder, robots.txt and the favicon. */
export const fileRoutes = new Hono<AppEnv>()
  .get('/assets/*', serve('dist/assets', IMMUTABLE))
  .get('/static/*', serve('static', STATIC))
  .get('/robots.txt', (c) => {
    const base = c.var.deps.config.publicUrl;
    c.header('Cache-Control', STATIC);
    return c.text(`User-agent: *\nDisallow: /admin\nDisallow: /api/\nDisallow: /profile\nDisallow: /cart\nDisallow: /checkout\n\nSitemap: ${base}/sitemap.xml\n`);
  })
  .get('/favicon.ico', (c) => c.redirect('/static/favicon.svg', 301));
