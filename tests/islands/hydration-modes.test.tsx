import { registerDom, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createElement, useState } from 'react';
import { renderDocument } from '../../src/components/render-document.tsx';
import { Island } from '../../src/components/Island.tsx';
import type { IslandComponent } from '../../src/islands/lib/hydrate.ts';

/*
 * The island runtime's three modes: load hydrates at once, idle waits for the browser to be
 * idle, visible waits until the island scrolls into view.
 */

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return createElement('button', { type: 'button', onClick: () => setCount(count + 1) }, `${label} ${count}`);
}

const manifest = {
  css: '/assets/app.css',
  runtime: '/assets/runtime.js',
  imageFallback: '/assets/image-fallback.js',
  islands: { AuthForm: '/assets/AuthForm.js', Toaster: '/assets/Toaster.js' },
};
let observed: ((entries: { isIntersecting: boolean }[]) => void) | null = null;
let idleCallback: (() => void) | null = null;

beforeAll(() => {
  registerDom({ url: 'http://localhost/' });
  (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
    constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
      observed = callback;
    }
    observe() {}
    disconnect() {}
  };
  (window as unknown as { requestIdleCallback: unknown }).requestIdleCallback = (callback: () => void) => {
    idleCallback = callback;
  };
});

afterAll(async () => {
  // The stubs must not outlive this file: later files hydrate idle and visible islands for real.
  delete (window as unknown as { IntersectionObserver?: unknown }).IntersectionObserver;
  delete (window as unknown as { requestIdleCallback?: unknown }).requestIdleCallback;
  await unregisterDom();
});

async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('island runtime', () => {
  test('the server marks islands with their name, mode, code URL, props and own id prefix', () => {
    const html = renderDocument(
      manifest,
      createElement('div', null, [
        createElement(Island, { key: 1, name: 'Toaster', props: { initial: null }, mode: 'idle' }),
        createElement(Island, { key: 2, name: 'Toaster', props: { initial: { title: '</script>' } }, mode: 'visible' }),
      ]),
    );
    expect(html).toContain('data-island="Toaster" data-mode="idle" data-src="/assets/Toaster.js" data-prefix="i0-"');
    expect(html).toContain('data-mode="visible" data-src="/assets/Toaster.js" data-prefix="i1-"');
    expect(html).toContain('{"initial":{"title":"\\u003c/script\\u003e"}}');
    expect(html).not.toContain('<!--island:');
  });

  test('load, idle and visible islands hydrate when their moment comes', async () => {
    const { startIslands } = await import('../../src/islands/lib/hydrate.ts');
    const { renderToString } = await import('react-dom/server');
    document.body.innerHTML = ['load', 'idle', 'visible']
      .map(
        (mode) =>
          `<div data-island="Counter" data-mode="${mode}" data-prefix="${mode}-"><script type="application/json">{"label":"${mode}"}</script>` +
          `<div data-island-root="">${renderToString(createElement(Counter, { label: mode }))}</div></div>`,
      )
      .join('');
    startIslands(async () => Counter as unknown as IslandComponent);
    await settle();
    const state = (mode: string) => (document.querySelector(`[data-mode="${mode}"]`) as HTMLElement).dataset.hydrated;
    expect(state('load')).toBe('true');
    expect(state('idle')).toBeUndefined();
    expect(state('visible')).toBeUndefined();

    idleCallback!();
    await settle();
    expect(state('idle')).toBe('true');
    expect(state('visible')).toBeUndefined();

    observed!([{ isIntersecting: true }]);
    await settle();
    expect(state('visible')).toBe('true');

    const button = document.querySelector('[data-mode="visible"] button') as HTMLButtonElement;
    button.click();
    await settle();
    expect(button.textContent).toBe('visible 1');
  });
});
