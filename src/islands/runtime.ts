import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';

/*
 * The browser side of islands: find each server-rendered island and hydrate it as its own
 * root when its mode says so (load: now; idle: when the browser is idle; visible: on screen).
 */

type IslandModule = { default: ComponentType<Record<string, unknown>> };

async function hydrate(element: HTMLElement): Promise<void> {
  const { src, prefix, island } = element.dataset;
  const root = element.querySelector<HTMLElement>(':scope > [data-island-root]');
  const propsScript = element.querySelector(':scope > script[type="application/json"]');
  if (!src || !root) return;
  try {
    const module = (await import(/* @vite-ignore */ src)) as IslandModule;
    const props = JSON.parse(propsScript?.textContent || '{}') as Record<string, unknown>;
    hydrateRoot(root, createElement(module.default, props), { identifierPrefix: prefix });
    element.dataset.hydrated = 'true';
  } catch (error) {
    console.error(`Island ${island} failed to hydrate`, error);
  }
}

function schedule(element: HTMLElement): void {
  const mode = element.dataset.mode;
  if (mode === 'idle') {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200));
    idle(() => void hydrate(element));
  } else if (mode === 'visible' && 'IntersectionObserver' in window) {
    // The wrapper is display:contents, so watch its first real child.
    const target = (element.querySelector(':scope > [data-island-root] > *') as HTMLElement | null) ?? element;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        void hydrate(element);
      }
    });
    observer.observe(target);
  } else {
    void hydrate(element);
  }
}

export function startIslands(): void {
  document.querySelectorAll<HTMLElement>('[data-island]').forEach(schedule);
}

startIslands();
