import type { ReactNode } from 'react';
import { Layout } from '../components/Layout.tsx';
import type { PageMeta } from '../components/Document.tsx';
import { renderTree } from '../components/render-document.tsx';
import { slotMarkup } from '../components/slots.tsx';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext, AppDeps, AppEnv } from './context.ts';
import { takeFlash } from './flash.ts';
import { joinGzip, joinPlain, Piece } from './gzip-join.ts';
import { shapeKey, viewerPartsFor } from './viewer-parts.tsx';
import type { PageStatus, SharedPage } from './shared-page.ts';
import { acceptsGzip } from './accept-encoding.ts';

export interface RenderOptions {
  status?: PageStatus;
  /** A toast to show on this very page (a form post answered in place). */
  toast?: ToastInput;
  /**
   * Where the header's back button leads: the page above this one (a product goes back to its
   * gallery). A fixed target works without JavaScript and keeps cached pages the same for all.
   */
  backHref?: string;
}

export function renderSharedPage(deps: AppDeps, meta: PageMeta, body: ReactNode, status: PageStatus, backHref: string): SharedPage {
  const { config, manifest } = deps;
  const tree = renderTree(
    manifest,
    <Layout meta={meta} site={{ siteName: config.siteName, publicUrl: config.publicUrl, testMode: config.testModeBanner }}>
      {body}
    </Layout>,
    { fragments: deps.pageCache.fragments },
  );
  // The header's slot is near the start and the tail's near the end (no page text can make
  // either: React escapes every '<'): found from their ends, a page of 50 kB is not scanned
  // whole, and the doctype goes on the first piece, so the page is not copied again for it.
  const { html } = tree;
  const header = html.indexOf(slotMarkup('header'));
  const tail = html.lastIndexOf(slotMarkup('tail'));
  if (header < 0 || tail < header) throw new Error('The layout lost its header or tail slot');
  const shape = shapeKey({ path: meta.path, backHref, islandsUsed: [...tree.islandsUsed], needsImageFallback: tree.needsImageFallback });
  return {
    kind: 'page',
    status,
    shape,
    pieces: [
      new Piece(`<!doctype html>${html.slice(0, header)}`),
      new Piece(html.slice(header + slotMarkup('header').length, tail)),
      new Piece(html.slice(tail + slotMarkup('tail').length)),
    ],
    path: meta.path,
    backHref,
    islandsUsed: [...tree.islandsUsed],
    needsImageFallback: tree.needsImageFallback,
  };
}

/**
 * Answers with a shared page and the viewer's header and tail put in, gzipped when the client
 * takes gzip (without compressing the page again: see gzip-join.ts). A visitor's page is never
 * used by a browser without revalidation; a signed-in user's page (their name in the header,
 * their orders, profile or checkout) is never kept at all, by the browser or anything between
 * (the server-side page cache keeps only the shared parts, see page-cache.ts).
 */
export function sendPage<E extends AppEnv>(c: AppContext<E>, page: SharedPage, toast: ToastInput | null = takeFlash(c)) {
  const parts = viewerPartsFor(c, page, toast);
  const pieces = [page.pieces[0], parts.header, page.pieces[1], parts.tail, page.pieces[2]];
  c.header('Cache-Control', c.get('user') ? 'private, no-store' : 'no-cache');
  c.header('Content-Type', 'text/html; charset=UTF-8');
  c.header('Vary', 'Accept-Encoding');
  if (acceptsGzip(c.req.header('accept-encoding'))) {
    c.header('Content-Encoding', 'gzip');
    // A page rendered for this request alone is compressed once, fast (joinGzip).
    if (!page.kept) return c.body(joinGzip(pieces), page.status);
    // A kept page for a signed-in viewer: its compressed pieces (deflated by the first) around theirs.
    if (c.get('user')) return c.body(joinGzip(pieces, { deflate: true }), page.status);
    // Compressed whole, once: a sixth smaller than pieces compressed apart, which cannot point
    // back at each other's repeated class names and icons.
    if (page.visitorGzip?.parts !== parts) page.visitorGzip = { parts, body: Bun.gzipSync(joinPlain(pieces)) as Uint8Array<ArrayBuffer> };
    return c.body(page.visitorGzip.body, page.status);
  }
  return c.body(joinPlain(pieces), page.status);
}

/** Renders a page inside the shared layout, with the viewer's own header and tail. */
export function renderPage<E extends AppEnv>(c: AppContext<E>, meta: PageMeta, body: ReactNode, { status = 200, toast, backHref = '/' }: RenderOptions = {}) {
  const page = renderSharedPage(c.env.deps, meta, body, status, backHref);
  // The page cache (cachePages) keeps what the route rendered.
  c.set('renderedPage', page);
  return sendPage(c, page, toast ?? takeFlash(c));
}

/** Path and query of the current request, for canonical URLs. */
export function currentPath<E extends AppEnv>(c: AppContext<E>): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}
