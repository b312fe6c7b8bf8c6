import { createElement, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { AssetManifest } from '../assets.ts';
import { islands } from '../islands/registry.ts';
import { RenderContext, type FragmentStore, type RenderState } from './render-context.ts';

/** Where `Cached` put a kept fragment (no page text can make one: React escapes every '<'). */
const FRAGMENT_MARKER = /<csa-fragment data-i="(\d+)"><\/csa-fragment>/g;

export interface RenderedTree {
  html: string;
  /** The islands the tree uses, in the order they came (with those it started from). */
  islandsUsed: Set<string>;
  needsImageFallback: boolean;
}

export interface RenderTreeOptions {
  /** Starts island id prefixes ('i0-', 'i1-', ...): trees rendered apart and shown on one page need their own. */
  prefix?: string;
  /** Islands already on the page this tree joins: the tree's scripts and toaster count them. */
  islandsUsed?: Iterable<string>;
  needsImageFallback?: boolean;
  fragments?: FragmentStore | null;
}

/** Renders a tree to HTML, with each island's HTML rendered as its own root. */
export function renderTree(manifest: AssetManifest, tree: ReactNode, options: RenderTreeOptions = {}): RenderedTree {
  const state: RenderState = {
    manifest,
    prefix: options.prefix ?? 'i',
    islandsUsed: new Set(options.islandsUsed),
    pending: [],
    needsImageFallback: options.needsImageFallback ?? false,
    fragments: options.fragments ?? null,
    placed: [],
  };
  let html = renderToString(<RenderContext.Provider value={state}>{tree}</RenderContext.Provider>);
  for (const island of state.pending) {
    const component = islands[island.name as keyof typeof islands] as ComponentType<Record<string, unknown>>;
    const islandHtml = renderToString(createElement(component, island.props as Record<string, unknown>), {
      identifierPrefix: island.prefix,
    });
    html = html.replace(island.marker, () => islandHtml);
  }
  if (state.placed.length > 0) html = html.replace(FRAGMENT_MARKER, (_, index: string) => state.placed[Number(index)]!);
  return { html, islandsUsed: state.islandsUsed, needsImageFallback: state.needsImageFallback };
}

/** A complete HTML document from a page tree (an `<html>` element). */
export function renderDocument(manifest: AssetManifest, page: ReactNode): string {
  return `<!doctype html>${renderTree(manifest, page).html}`;
}
