import { createElement, type ComponentType, type ReactNode, useEffect } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

/*
 * The browser side of islands: find each server-rendered island and hydrate it as its own
 * root when its mode says so (load: now; idle: when the browser is idle; visible: on screen).
 */

export type IslandComponent = ComponentType<Record<string, unknown>>;
export type IslandLoader = (element: HTMLElement) => Promise<IslandComponent>;

/** In the browser an island's code is the hashed module the server named in data-src. */
export const importIslandModule: IslandLoader = async (element) => {
  const module = (await import(/* @vite-ignore */ element.dataset.src!)) as { default: IslandComponent };
  return module.default;
};

/*
 * hydrateRoot renders later, and an island listens only once its effects ran; a parent's effect
 * runs after its children's, so this one marks the island interactive at the right moment
 * (tests and scripts wait for data-hydrated="true").
 */
function MarkInteractive({ element, children }: { element: HTMLElement; children?: ReactNode }) {
  useEffect(() => {
    element.dataset.hydrated = 'true';
  }, [element]);
  return children;
}

/** Every island root this page started: stopIslands() ends them (a page torn down, a test's teardown). */
const started = new Set<Root>();

/** Unmounts every island: their effects clean up (timers, streams), so no late update reaches a page that is gone. */
export function stopIslands(): void {
  for (const root of started) root.unmount();
  started.clear();
}

export async function hydrateIsland(element: HTMLElement, load: IslandLoader): Promise<void> {
  const root = element.querySelector<HTMLElement>(':scope > [data-island-root]');
  const propsScript = element.querySelector(':scope > script[type="application/json"]');
  if (!root || element.dataset.hydrated) return;
  element.dataset.hydrated = 'pending';
  try {
    const component = await load(element);
    const props = JSON.parse(propsScript?.textContent || '{}') as Record<string, unknown>;
    started.add(
      hydrateRoot(root, createElement(MarkInteractive, { element }, createElement(component, props)), {
        identifierPrefix: element.dataset.prefix,
      }),
    );
  } catch (error) {
    element.dataset.hydrated = 'failed';
    console.error(`Island ${element.dataset.island} failed to hydrate`, error);
  }
}

function schedule(element: HTMLElement, load: IslandLoader): void {
  const mode = element.dataset.mode;
  if (mode === 'idle') {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
    idle(() => void hydrateIsland(element, load));
  } else if (mode === 'visible' && 'IntersectionObserver' in window) {
    // The wrapper is display:contents and has no box of its own, so watch its first real child.
    const target = element.querySelector<HTMLElement>(':scope > [data-island-root] > *') ?? element;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        void hydrateIsland(element, load);
      }
    });
    observer.observe(target);
  } else {
    void hydrateIsland(element, load);
  }
}

export function startIslands(load: IslandLoader = importIslandModule, scope: ParentNode = document): void {
  for (const element of scope.querySelectorAll<HTMLElement>('[data-island]')) schedule(element, load);
}
