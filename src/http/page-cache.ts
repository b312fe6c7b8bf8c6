import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { GALLERY_SORTS, PRODUCT_TYPE_NAMES } from '../shared/schemas/catalog.ts';
import type { AppContext, AppEnv } from './context.ts';

/**
 * Rendered catalogue pages for signed-out visitors, by URL. The cache belongs to the version of
 * the storefront it was filled at (`storefrontVersion`, bumped by triggers on every write a
 * visitor's page shows, by any process); each lookup reads the version and drops everything
 * when it moved, so a sale or a price change on one process is never served stale by another.
 */
interface CachedPage {
  body: string;
  /** Compressed once when stored, so a hit costs no compression. */
  gzip: Uint8Array;
  contentType: string;
}

/**
 * The finite views that are kept, by parameter and value. A key is built from these parsed
 * values only, so '/products?sort=newest%26type%3Dshoe' (one odd sort) can never be stored
 * under the key of '?sort=newest&type=shoe'.
 */
const CACHEABLE_VALUES: Record<string, readonly string[]> = {
  type: PRODUCT_TYPE_NAMES,
  sort: GALLERY_SORTS,
  tab: ['competition', 'details'],
};

/** The canonical query of a cacheable view ('' for none), or null when the URL is not one. */
export function cacheableQuery(params: URLSearchParams): string | null {
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    if (!Object.hasOwn(CACHEABLE_VALUES, name) || seen.has(name) || !CACHEABLE_VALUES[name]!.includes(value)) return null;
    seen.set(name, value);
  }
  return [...seen]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private filledAt: number | undefined;
  hits = 0;
  misses = 0;

  constructor(
    /** The storefront's current version (one indexed read); the cache is dropped whenever it moves. */
    private readonly version: () => number,
    private readonly maxEntries = 300,
  ) {}

  get(key: string) {
    const version = this.version();
    if (version !== this.filledAt) {
      this.entries.clear();
      this.filledAt = version;
    }
    const hit = this.entries.get(key);
    if (hit) this.hits++;
    else this.misses++;
    return hit;
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
    // Only the finite views are kept; a search, an unknown parameter or value is rendered, so
    // nobody can push pages out of the cache, or poison a key, with made-up URLs.
    const query = cacheableQuery(url.searchParams);
    if (query === null) return next();
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
