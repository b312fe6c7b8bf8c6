import { createElement, type ReactElement } from 'react';
import { preload } from 'react-dom';
import { renderTree } from './render-document.tsx';
import { useRenderState } from './render-context.ts';

/**
 * The image preloads React puts first when it renders a tree without a <head>: an eager
 * image's, or one a kept fragment inside asked for again (its attributes in another order).
 */
const LEADING_IMAGE_PRELOAD = /^<link rel="preload" (?:as="image" href="([^"]*)"|href="([^"]*)" as="image") fetchPriority="high"\/>/;

/**
 * A part of a page whose HTML depends on `cacheKey` alone (a product card on what it shows, a
 * grid on its cards), rendered once and reused by every page that shows it, until the key
 * changes. React spends about 12 µs on a card, most of a gallery's render. An eager image's
 * preload is asked of the page each time, so it still goes to the page's <head>. No islands
 * inside: their code and ids belong to the page.
 */
export function Cached({ cacheKey, children }: { cacheKey: string; children: ReactElement }) {
  const state = useRenderState();
  if (!state.fragments) return children;
  let fragment = state.fragments.get(cacheKey);
  if (!fragment) {
    // Kept fragments inside this one are reused too: a gallery's grid is made of kept cards.
    const tree = renderTree(state.manifest, children, { fragments: state.fragments });
    if (tree.islandsUsed.size > 0) throw new Error('A cached fragment cannot hold an island');
    let html = tree.html;
    const preloads: string[] = [];
    for (let found = LEADING_IMAGE_PRELOAD.exec(html); found; found = LEADING_IMAGE_PRELOAD.exec(html)) {
      preloads.push(decodeAttribute((found[1] ?? found[2])!));
      html = html.slice(found[0].length);
    }
    fragment = { html, needsImageFallback: tree.needsImageFallback, preloads };
    state.fragments.set(cacheKey, fragment);
  }
  for (const href of fragment.preloads) preload(href, { as: 'image', fetchPriority: 'high' });
  if (fragment.needsImageFallback) state.needsImageFallback = true;
  state.placed.push(fragment);
  return createElement('csa-fragment', { 'data-i': state.placed.length - 1 });
}

function decodeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}
