import type { ReactNode } from 'react';
import { Layout } from '../components/Layout.tsx';
import type { PageMeta } from '../components/Document.tsx';
import { renderTree } from '../components/render-document.tsx';
import { slotMarkup } from '../components/slots.tsx';
import type { RenderedFragment } from '../components/render-context.ts';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext, AppDeps, AppEnv } from './context.ts';
import { takeFlash } from './flash.ts';
import { JoinedPiece, joinGzip, joinPlain, Piece } from './gzip-join.ts';
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
    { fragments: deps.pageCache.fragments, apart: true },
  );
  const shape = shapeKey({ path: meta.path, backHref, islandsUsed: [...tree.islandsUsed], needsImageFallback: tree.needsImageFallback });
  return {
    kind: 'page',
    status,
    shape,
    pieces: piecesAroundSlots(tree.parts),
    path: meta.path,
    backHref,
    islandsUsed: [...tree.islandsUsed],
    needsImageFallback: tree.needsImageFallback,
  };
}

const SLOT = Symbol('slot');
type Part = string | RenderedFragment | typeof SLOT;

/** A kept fragment's piece, made (and compressed, when first sent gzipped) once for as long as the fragment is kept. */
const keptPieces = new WeakMap<RenderedFragment, Piece>();
function keptPiece(fragment: RenderedFragment): Piece {
  let piece = keptPieces.get(fragment);
  if (piece === undefined) {
    piece = new Piece(fragment.html);
    keptPieces.set(fragment, piece);
  }
  return piece;
}

/**
 * The page's three pieces around the viewer's header and tail, each laid from the page's own
 * text (glue, compressed for this request) and its kept fragments (compressed once): gzipping a
 * listing rendered for one request compresses a few hundred bytes, not the page. The header's
 * slot is near the start and the tail's near the end, in the layout's own text (no page text can
 * make either: React escapes every '<'), so each is looked for from its end.
 */
function piecesAroundSlots(treeParts: readonly (string | RenderedFragment)[]): [Piece, Piece, Piece] {
  const parts: Part[] = [`<!doctype html>${treeParts[0] as string}`, ...treeParts.slice(1)];
  const cut = (index: number, at: number, slot: string) => {
    const text = parts[index] as string;
    parts.splice(index, 1, text.slice(0, at), SLOT, text.slice(at + slot.length));
  };
  const tail = slotMarkup('tail');
  const tailPart = parts.findLastIndex((part) => typeof part === 'string' && part.includes(tail));
  if (tailPart >= 0) cut(tailPart, (parts[tailPart] as string).lastIndexOf(tail), tail);
  const header = slotMarkup('header');
  const headerPart = parts.findIndex((part) => typeof part === 'string' && part.includes(header));
  if (headerPart >= 0) cut(headerPart, (parts[headerPart] as string).indexOf(header), header);
  if (tailPart < 0 || headerPart < 0 || headerPart > tailPart) throw new Error('The layout lost its header or tail slot');
  const runs: Piece[][] = [[], [], []];
  let run = 0;
  for (const part of parts) {
    if (part === SLOT) run++;
    else if (typeof part !== 'string') runs[run]!.push(keptPiece(part));
    else if (part !== '') runs[run]!.push(new Piece(part, true));
  }
  return [new JoinedPiece(runs[0]!), new JoinedPiece(runs[1]!), new JoinedPiece(runs[2]!)];
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
    // A page rendered for this request alone: its own text compressed fast, its kept fragments as
    // they were compressed before. A kept page for a signed-in viewer: its compressed pieces
    // (deflated by the first such join) around the viewer's own.
    if (!page.kept || c.get('user')) return c.body(joinGzip(pieces, { deflate: true }), page.status);
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
