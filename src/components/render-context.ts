import { createContext, useContext } from 'react';
import type { AssetManifest } from '../assets.ts';

export interface PendingIsland {
  marker: string;
  name: string;
  props: unknown;
  prefix: string;
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
}

export const RenderContext = createContext<RenderState | null>(null);

export function useRenderState(): RenderState {
  const state = useContext(RenderContext);
  if (!state) throw new Error('Island rendered outside a page render');
  return state;
}
