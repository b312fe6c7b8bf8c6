import { createElement } from 'react';

/**
 * Where the viewer's own parts go in a page that is the same for everyone: the page is
 * rendered (and cached) with these placeholders, and the signed-in shopper's header and tail
 * (src/http/page-parts.tsx) are put in their place per request. No text of a page can make
 * one: React escapes every '<' of text and attributes.
 */
export type SlotName = 'header' | 'tail' | 'split';

export function Slot({ name }: { name: SlotName }) {
  return createElement('csa-slot', { 'data-name': name });
}

export function slotMarkup(name: SlotName): string {
  return `<csa-slot data-name="${name}"></csa-slot>`;
}
