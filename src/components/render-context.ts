import { createContext, useContext } from 'react';
import type { AssetManifest } from '../assets.ts';

export interface PendingIsland {
  marker: string;
  name: string;
  props: unknown;
  prefix: string;
}

/** A part of a page rendered before, and what rendering it told the page. */
export interface RenderedFragment {
  html: string;
  needsImageFallback: boolean;
  /** Images to preload from the page's <head> wherever the fragment shows. */
  preloads: string[];
}

/** Where rendered fragments are kept between requests (the page cache's, src/http/page-cache.ts). */
export interface FragmentStore {
  get(key: string): RenderedFragment | undefined;
  set(key: string, fragment: RenderedFragment): void;
}

/**
 * Per-request rendering state. Islands register here while the page renders; their HTML is
 * rendered afterwards as separate roots (see `renderDocument`), and only their code is shipped.
 */
export interface RenderState {
  manifest: AssetManifest;
  /** Island id prefixes of this render start with it (see `renderTree`). */
  prefix: string;
  islandsUsed: Set<string>;
  pending: PendingIsland[];
  /** Set when the page shows an image from another site, which may break. */
  needsImageFallback: boolean;
  /** Kept fragments (`Cached`); none, and every fragment is rendered, when null. */
  fragments: FragmentStore | null;
  /** The kept fragments this render placed, by their marker's index. */
  placed: RenderedFragment[];
}

export const RenderContext = createContext<RenderState | null>(null);

export function useRenderState(): RenderState {
  const state = useContext(RenderContext);
  if (!state) throw new Error('Island rendered outside a page render');
  return state;
}
