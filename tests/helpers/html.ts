import { Window } from 'happy-dom';

/**
 * A page's HTML parsed by a real DOM parser (happy-dom), for API tests that read what a page
 * says: `textOf` is the visible text with scripts and JSON props left out.
 */
export function parseHtml(html: string): Document {
  const window = new Window({ url: 'http://localhost/' });
  window.document.write(html);
  return window.document as unknown as Document;
}

export function textOf(html: string): string {
  const doc = parseHtml(html);
  for (const script of Array.from(doc.querySelectorAll('script, style, template'))) script.remove();
  return (doc.body?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
