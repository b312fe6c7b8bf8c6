import { createElement, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { AssetManifest } from '../assets.ts';
import { islands } from '../islands/registry.ts';
import { RenderContext, type RenderState } from './render-context.ts';

/** Renders a page to a complete HTML document, with each island's HTML rendered as its own root. */
export function renderDocument(manifest: AssetManifest, page: ReactNode): string {
  const state: RenderState = { manifest, islandsUsed: new Set(), pending: [], needsImageFallback: false };
  let html = renderToString(<RenderContext.Provider value={state}>{page}</RenderContext.Provider>);
  for (const island of state.pending) {
    const component = islands[island.name as keyof typeof islands] as ComponentType<Record<string, unknown>>;
    const islandHtml = renderToString(createElement(component, island.props as Record<string, unknown>), {
      identifierPrefix: island.prefix,
    });
    html = html.replace(island.marker, () => islandHtml);
  }
  return `<!doctype html>${html}`;
}
