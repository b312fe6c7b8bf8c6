import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from './context.ts';

/**
 * Rendered catalogue pages for signed-out visitors, by URL. Every product write clears it
 * (`CatalogWriter.changed`), so a visitor never sees a stale catalogue.
 */
export class PageCache {
  private readonly entries = new Map<string, { body: string; contentType: string }>();

  constructor(private readonly maxEntries = 300) {}

  get(key: string) {
    return this.entries.get(key);
  }

  set(key: string, body: string, contentType: string): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { body, contentType });
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
 */
export const cacheForVisitors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' || getCookie(c, 'csa_session') || getCookie(c, 'csa_flash')) return next();
  const cache = c.var.deps.pageCache;
  const url = new URL(c.req.url);
  const key = `${url.pathname}?${[...url.searchParams].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join('&')}`;
  const hit = cache.get(key);
  if (hit) {
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Type', hit.contentType);
    return c.body(hit.body, 200);
  }
  await next();
  const contentType = c.res.headers.get('content-type') ?? '';
  if (c.res.status === 200 && !c.res.headers.has('set-cookie') && /text\/html|application\/json/.test(contentType)) {
    cache.set(key, await c.res.clone().text(), contentType);
  }
};
