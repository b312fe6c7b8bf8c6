import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { toasts } from '../../src/islands/lib/toast.ts';
import { Window } from 'happy-dom';

/*
 * happy-dom as the browser for island tests. React keeps the timer functions it finds when it
 * first loads; happy-dom's window timers stop when that window closes, which would silently
 * stall React in the next test file. So the globals keep Bun's own timers.
 */
const native = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
  queueMicrotask: globalThis.queueMicrotask,
};

export function registerDom(options: { url: string; width?: number; height?: number }): void {
  GlobalRegistrator.register(options);
  Object.assign(globalThis, native);
  // The page's toasts are one module's signal for the whole worker: a file starts with none.
  toasts.value = [];
}

/**
 * React reads `window` whenever a component updates (the current event's priority), even an
 * unmounted one; a fetch or timer of an island that settles after happy-dom is gone then threw
 * 'window is not defined' between test files on a busy machine. So the islands are unmounted
 * first (their effects stop their timers and streams), and the loop turns until nothing that
 * was already due is left, before the window goes.
 */
export async function unregisterDom(): Promise<void> {
  const { stopIslands } = await import('../../src/islands/lib/hydrate.ts');
  stopIslands();
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  // An island's toast left in the shared signal showed in the next file's Toaster ('Payment Setup Error' in a sign-in test).
  toasts.value = [];
  await GlobalRegistrator.unregister();
}

/*
 * The page is parsed by happy-dom, the browser the islands hydrate in, not by tests/helpers/html.ts
 * (linkedom, for reading pages): what comes back is serialised again and must be the markup as a
 * browser keeps it (linkedom rewrites a class attribute from its token list: "m-0 " becomes "m-0",
 * and React reports the difference as a hydration mismatch). One window serves every parse.
 */
let parser: DOMParser | undefined;
const pageParser = () => (parser ??= new new Window({ url: 'http://localhost/' }).DOMParser() as unknown as DOMParser);

/**
 * A server-rendered page's body, to put in `document.body` before a test starts the islands
 * itself: without the module scripts (the test hydrates) and the links (no stylesheet or
 * preload is fetched here).
 */
export function serverBody(page: string): string {
  const { body } = pageParser().parseFromString(page, 'text/html');
  for (const element of Array.from(body.querySelectorAll('script[type="module"], link'))) element.remove();
  return body.innerHTML;
}

/**
 * Puts a server-rendered page in the document and hydrates its islands as the browser runtime
 * does (each from the registry, as the client build bundles them). The caller waits for what it
 * needs next: the islands hydrated, or the first thing they show.
 */
export async function startPageIslands(html: string): Promise<void> {
  document.body.innerHTML = serverBody(html);
  const { startIslands } = await import('../../src/islands/lib/hydrate.ts');
  const { islands } = await import('../../src/islands/registry.ts');
  startIslands(async (element) => islands[element.dataset.island as keyof typeof islands] as never);
}
