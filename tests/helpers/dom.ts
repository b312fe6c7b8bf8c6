import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { parseHtml } from './html.ts';

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
}

export async function unregisterDom(): Promise<void> {
  await GlobalRegistrator.unregister();
}

/**
 * A server-rendered page's body, to put in `document.body` before a test starts the islands
 * itself: without the module scripts (the test hydrates) and the links (no stylesheet or
 * preload is fetched here).
 */
export function serverBody(page: string): string {
  const { body } = parseHtml(page);
  for (const element of Array.from(body.querySelectorAll('script[type="module"], link'))) element.remove();
  return body.innerHTML;
}
