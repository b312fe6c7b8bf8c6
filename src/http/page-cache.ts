import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppContext, AppEnv } from './context.ts';

/**
 * Rendered catalogue pages for signed-out visitors, by URL. Every product write clears it
 * (`CatalogWriter.changed`), so a visitor never sees a stale catalogue.
 */
interface CachedPage {
  body: string;
  /** Compressed once when stored, so a hit costs no compression. */
  gzip: Uint8Array;
  contentType: string;
}

const CACHEABLE_PARAMS = new Set(['type', 'sort', 'tab']);

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();

  constructor(private readonly maxEntries = 300) {}

  get(key: string) {
    return this.entries.get(key);
  }

  set(key: string, body: string, contentType: string): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { body, gzip: Bun.gzipSync(body), contentType });
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Serves a cached copy to visitors without a session or a pending toast; stores successful
 * answers. Signed-in pages carry the visitor's header, so they are always rendered.
 * `fingerprint` adds what else the page shows to the key (a product page's game state), so
 * a change there makes a new entry instead of a stale hit.
 */
export function cacheForVisitors(fingerprint?: (c: AppContext) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' || getCookie(c, 'csa_session') || getCookie(c, 'csa_flash')) return next();
    const cache = c.var.deps.pageCache;
    const url = new URL(c.req.url);
    // Only the finite views are kept (type, sort, tab); a search or any other parameter is
    // rendered, so nobody can push the home page out of the cache with made-up URLs.
    if ([...url.searchParams].some(([name, value]) => !CACHEABLE_PARAMS.has(name) || value.length > 20)) return next();
    const query = [...url.searchParams].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join('&');
    const key = `${url.pathname}?${query}#${fingerprint ? fingerprint(c) : ''}`;
    const hit = cache.get(key);
    if (hit) {
      c.header('Cache-Control', 'no-cache');
      c.header('Content-Type', hit.contentType);
      c.header('Vary', 'Accept-Encoding');
      if (/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
        c.header('Content-Encoding', 'gzip');
        return c.body(hit.gzip as Uint8Array<ArrayBuffer>, 200);
      }
      return c.body(hit.body, 200);
    }
    await next();
    const contentType = c.res.headers.get('content-type') ?? '';
    if (c.res.status === 200 && !c.res.headers.has('set-cookie') && /text\/html|application\/json/.test(contentType)) {
      cache.set(key, await c.res.clone().text(), contentType);
    }
  };
}
