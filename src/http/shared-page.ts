import type { Piece } from './gzip-join.ts';

/*
 * What a rendered page is, apart from how it is rendered (render.tsx) and kept (page-cache.ts):
 * the request context (context.ts) names it too, so it lives below all three and none of them
 * imports another for it.
 */

export type PageStatus = 200 | 400 | 401 | 403 | 404 | 409 | 413 | 429;

export interface ViewerPieces {
  header: Piece;
  tail: Piece;
}

/**
 * A page as it is for everyone who may see it, in three pieces around the viewer's header and
 * tail. This is what the page cache keeps: the viewer's parts are put in per request.
 */
export interface SharedPage {
  kind: 'page';
  status: PageStatus;
  /** Before the header, between the header and the tail, after the tail. */
  pieces: readonly [Piece, Piece, Piece];
  /** Path and query the page was rendered for (the header and bottom bar mark where you are). */
  path: string;
  backHref: string;
  islandsUsed: readonly string[];
  needsImageFallback: boolean;
  /** What the viewer's parts depend on besides the viewer (viewer-parts.tsx), worked out once. */
  shape: string;
  /** Kept in the page cache (page-cache.ts): its pieces are joined compressed for signed-in viewers, a visitor gets it gzipped whole. */
  kept?: boolean;
  /** The gzip body a visitor gets, made once: every visitor's header and tail are the same. */
  visitorGzip?: { parts: ViewerPieces; body: Uint8Array<ArrayBuffer> };
}
