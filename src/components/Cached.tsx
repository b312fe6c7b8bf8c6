import { createElement, type ReactElement } from 'react';
import { renderTree } from './render-document.tsx';
import { useRenderState } from './render-context.ts';

/**
 * A part of a page whose HTML depends on `cacheKey` alone (a product card on its product's
 * row), rendered once and reused by every page that shows it, until the key changes. React
 * spends about 12 µs on a card, most of a gallery's render. No islands inside: their code and
 * ids belong to the page.
 */
export function Cached({ cacheKey, children }: { cacheKey: string; children: ReactElement }) {
  const state = useRenderState();
  if (!state.fragments) return children;
  let fragment = state.fragments.get(cacheKey);
  if (!fragment) {
    const tree = renderTree(state.manifest, children);
    if (tree.islandsUsed.size > 0) throw new Error('A cached fragment cannot hold an island');
    fragment = { html: tree.html, needsImageFallback: tree.needsImageFallback };
    state.fragments.set(cacheKey, fragment);
  }
  if (fragment.needsImageFallback) state.needsImageFallback = true;
  state.placed.push(fragment.html);
  return createElement('csa-fragment', { 'data-i': state.placed.length - 1 });
}
