import { DOMParser as LinkedomParser } from 'linkedom';

/*
 * Reading server-rendered HTML in API tests, through a real DOM parser rather than regular
 * expressions: entities come decoded, attribute order and quoting do not matter, and a selector
 * says what a test looks at. Every reader takes the page's HTML or a node from it, so a test can
 * narrow to one part (`mainOf(html)`) and keep reading there.
 *
 * The parser is linkedom (htmlparser2 underneath, css-select for selectors), not happy-dom:
 * reading pages needs a DOM, not a browser window (tests/helpers/dom.ts and the island tests
 * keep happy-dom for that). Measured on five real pages (18-56 kB), 100 parses each: happy-dom
 * 7-28 ms a page, 7.6-8.3 CPU s for the 500; linkedom 2.5-10 ms warm, 4.0 CPU s. `bun test
 * tests/api`, alternated twice on two shared cores: 77.1 and 84.5 CPU s with happy-dom, 70.1 and
 * 73.3 with linkedom (issue 35). linkedom builds the tree as the markup says rather than running
 * the HTML tree builder, so parseHtml adds what an HTML parser does that it does not (below).
 * Left as linkedom has them: an SVG element's tagName is upper case, and getAttribute('class')
 * gives the class list joined by single spaces (duplicates and outer spaces gone).
 */

export type Html = string | ParentNode;

const parser = new LinkedomParser() as unknown as DOMParser;
const UPPER = /[A-Z]/;

/** A fresh Document of the page, for a test that wants the DOM API itself. */
export function parseHtml(html: string): Document {
  let doc = parser.parseFromString(html, 'text/html');
  /*
   * linkedom builds the tree as written, with no implied <html> and <body>: a fragment's first
   * element would become the document element and `body` an empty one. An HTML parser puts a
   * fragment in the body, so it is parsed again inside one.
   */
  if (doc.documentElement?.localName !== 'html') doc = parser.parseFromString(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`, 'text/html');
  /*
   * An HTML parser reads attribute names without case: React writes encType, readOnly,
   * fetchPriority and popoverTarget, and a browser (and a selector) sees enctype, readonly...
   * linkedom keeps them as written, so they are lowered here; SVG's own (viewBox) keep theirs.
   */
  for (const element of Array.from(doc.querySelectorAll('*'))) {
    if ((element as Element & { ownerSVGElement?: unknown }).ownerSVGElement || element.localName === 'svg') continue;
    for (const name of element.getAttributeNames()) {
      if (!UPPER.test(name)) continue;
      const value = element.getAttribute(name)!;
      element.removeAttribute(name);
      element.setAttribute(name.toLowerCase(), value);
    }
  }
  /*
   * A textarea's content is text with character references (RCDATA): htmlparser2 hands it over
   * raw, so "Paint &amp; prints" is decoded here, the way a browser shows it.
   */
  for (const textarea of Array.from(doc.querySelectorAll('textarea'))) {
    const raw = textarea.textContent ?? '';
    if (!raw.includes('&')) continue;
    const scratch = doc.createElement('div');
    scratch.innerHTML = raw;
    textarea.textContent = scratch.textContent;
  }
  return doc;
}

/*
 * Tests read the same page several times in a row (its heading, a field, the toast); parsing a
 * large page takes several milliseconds, so the last few stay parsed. Readers never change them.
 */
const recent = new Map<string, Document>();

function rootOf(html: Html): ParentNode {
  if (typeof html !== 'string') return html;
  let doc = recent.get(html);
  if (!doc) {
    doc = parseHtml(html);
    if (recent.size >= 8) recent.delete(recent.keys().next().value!);
    recent.set(html, doc);
  }
  return doc;
}

/** Every element matching `selector`, in document order. */
export function all(html: Html, selector: string): Element[] {
  return Array.from(rootOf(html).querySelectorAll(selector));
}

/** The first element matching `selector`, if any. */
export function first(html: Html, selector: string): Element | undefined {
  return rootOf(html).querySelector(selector) ?? undefined;
}

/**
 * How many elements match `selector`: what a test asserts when it asks whether something is
 * there (a failing assertion on an Element itself prints the whole document).
 */
export function count(html: Html, selector: string): number {
  return rootOf(html).querySelectorAll(selector).length;
}

/** The page's own content, without the shared header, navigation and toaster; fails if there is none. */
export function mainOf(html: Html): Element {
  if (typeof html !== 'string' && (html as Element).tagName === 'MAIN') return html as Element;
  const main = first(html, 'main');
  if (!main) throw new Error('the page has no <main>');
  return main;
}

/** The page's heading: the text of the first h1 in its main content. */
export const headingOf = (html: Html) => text(mainOf(html), 'h1');

const HIDDEN = new Set(['SCRIPT', 'STYLE', 'TEMPLATE']);

/*
 * Each element's text is kept apart from its neighbours': pages lay out pills, prices and labels
 * as separate boxes, and "× 1" next to "$171.00" reads "× 1 $171.00", not "× 1$171.00".
 */
function collectText(node: Node, out: string[]): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) out.push(child.nodeValue ?? '');
    else if (child.nodeType === 1 && !HIDDEN.has((child as Element).tagName)) {
      out.push(' ');
      collectText(child, out);
      out.push(' ');
    }
  }
}

/**
 * The visible text, whitespace collapsed, scripts (islands' JSON props), styles and templates
 * left out. Of a whole page, the body's text.
 */
export function textOf(html: Html): string {
  const root = rootOf(html);
  const node = (root as Document).body ?? root;
  const out: string[] = [];
  collectText(node, out);
  return out.join('').replace(/\s+/g, ' ').trim();
}

/** The visible text of the first element matching `selector`, or undefined when none does. */
export function text(html: Html, selector: string): string | undefined {
  const element = first(html, selector);
  return element ? textOf(element) : undefined;
}

/** The visible text of every element matching `selector`, in document order. */
export const texts = (html: Html, selector: string) => all(html, selector).map(textOf);

/** An attribute of the first element matching `selector`, or undefined (no element, or no such attribute). */
export function attribute(html: Html, selector: string, name: string): string | undefined {
  return first(html, selector)?.getAttribute(name) ?? undefined;
}

/** The attribute `name` of every element matching `selector` that has it, in document order. */
export function attributes(html: Html, selector: string, name: string): string[] {
  return all(html, selector).flatMap((element) => element.getAttribute(name) ?? []);
}

/** Every href on the page or part, in document order. */
export const hrefsOf = (html: Html) => attributes(html, '[href]', 'href');

/** The links matching `selector`: where each goes and its visible text. */
export function links(html: Html, selector = 'a[href]'): { href: string; text: string }[] {
  return all(html, selector).map((a) => ({ href: a.getAttribute('href') ?? '', text: textOf(a) }));
}

/** A `<meta>` element's content, by its property or name (Open Graph and the rest). */
export function metaContent(html: Html, key: string): string | undefined {
  return attribute(html, `meta[property="${key}"], meta[name="${key}"]`, 'content');
}

// ---------------------------------------------------------------- forms, as the server wrote them

/** The value attribute of the input named `name` (undefined: no such input, or no value). */
export const inputValue = (html: Html, name: string) => attribute(html, `input[name="${name}"]`, 'value');

/** The text inside the textarea named `name`, or undefined when there is none. */
export const textareaValue = (html: Html, name: string) => first(html, `textarea[name="${name}"]`)?.textContent ?? undefined;

/** The value of the option marked selected in the select named `name`, if any. */
export const selectedValue = (html: Html, name: string) => attribute(html, `select[name="${name}"] option[selected]`, 'value');

/** The options of the select named `name`: value, visible label, and whether it is marked selected. */
export const selectOptions = (html: Html, name: string) =>
  all(html, `select[name="${name}"] option`).map((option) => ({
    value: option.getAttribute('value') ?? '',
    label: textOf(option),
    selected: option.hasAttribute('selected'),
  }));

/** The messages shown next to fields, by field name: elements with the id `{prefix}{name}-error`. */
export function fieldErrors(html: Html, prefix: string): Record<string, string> {
  return Object.fromEntries(
    all(html, `[id^="${prefix}"][id$="-error"]`).map((element) => [element.id.slice(prefix.length, -'-error'.length), textOf(element)]),
  );
}

/** Whether the input named `name` is rendered ticked. */
export const isChecked = (html: Html, name: string) => first(html, `input[name="${name}"]`)?.hasAttribute('checked') ?? false;

/** What a browser would submit from `form` left as rendered (file inputs and unticked boxes left out). */
export function formFields(form: Element): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const input of all(form, 'input[name]')) {
    const type = input.getAttribute('type');
    if (type === 'file') continue;
    if (type === 'checkbox') {
      if (input.hasAttribute('checked')) fields[input.getAttribute('name')!] = 'on';
    } else fields[input.getAttribute('name')!] = input.getAttribute('value') ?? '';
  }
  for (const select of all(form, 'select[name]')) fields[select.getAttribute('name')!] = attribute(select, 'option[selected]', 'value') ?? '';
  for (const textarea of all(form, 'textarea[name]')) fields[textarea.getAttribute('name')!] = textarea.textContent ?? '';
  return fields;
}

// ---------------------------------------------------------------- islands

/** The props of every island named `name`, as the page hands them to the browser. */
export function allIslandProps<T = Record<string, unknown>>(html: Html, name: string): T[] {
  return all(html, `[data-island="${name}"] > script[type="application/json"]`).map((script) => JSON.parse(script.textContent ?? '') as T);
}

/** The props of the first island named `name`; fails when the page has none. */
export function islandProps<T = Record<string, unknown>>(html: Html, name: string): T {
  const [props] = allIslandProps<T>(html, name);
  if (props === undefined) throw new Error(`no ${name} island on the page`);
  return props;
}

export type Toast = { title: string; description?: string; variant?: string };

/**
 * The toast the page opens with (the Toaster island's initial props), or null: a page with no
 * toast to show and no island that could raise one has no Toaster at all.
 */
export function toastOf(html: Html): Toast | null {
  const [toaster] = allIslandProps<{ initial?: Toast | null }>(html, 'Toaster');
  return toaster?.initial ?? null;
}
