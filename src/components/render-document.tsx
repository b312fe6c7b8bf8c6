import { createElement, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { AssetManifest } from '../assets.ts';
import { islands } from '../islands/registry.ts';
import { RenderContext, type FragmentStore, type RenderedFragment, type RenderState } from './render-context.ts';

/** Where `Cached` put a kept fragment (no page text can make one: React escapes every '<'). */
const FRAGMENT_MARKER = /<csa-fragment data-i="(\d+)"><\/csa-fragment>/g;

export interface RenderedTree {
  html: string;
  /** With `apart`: the HTML as the text around the kept fragments and the fragments themselves, in order (`html` is then empty). */
  parts: (string | RenderedFragment)[];
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
  /** Leave the kept fragments apart (`parts`), for a caller that reuses what it made of each (render.tsx). */
  apart?: boolean;
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
  const done = { islandsUsed: state.islandsUsed, needsImageFallback: state.needsImageFallback };
  if (options.apart) {
    // split() with a capturing group: text, a fragment's index, text, ... (a fragment's HTML holds no marker).
    const split = html.split(FRAGMENT_MARKER);
    return { ...done, html: '', parts: split.map((part, index) => (index % 2 === 0 ? part : state.placed[Number(part)]!)) };
  }
  if (state.placed.length > 0) html = html.replace(FRAGMENT_MARKER, (_, index: string) => state.placed[Number(index)]!.html);
  return { ...done, html, parts: [html] };
}

/** A complete HTML document from a page tree (an `<html>` element). */
export function renderDocument(manifest: AssetManifest, page: ReactNode): string {
  return `<!doctype html>${renderTree(manifest, page).html}`;
}
