import type { ComponentProps } from 'react';
import type { islands, IslandName } from '../islands/registry.ts';
import { useRenderState } from './render-context.ts';

export type HydrationMode = 'load' | 'idle' | 'visible';

/** JSON that is safe inside a <script> element: nothing can close the element or start a comment. */
export function serializeProps(props: unknown): string {
  return JSON.stringify(props ?? {})
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Marks an island: its name, hydration mode, code URL and props as JSON. Its HTML is rendered
 * as its own React root (own identifierPrefix, so useId matches in the browser) once the page
 * has rendered, and put in place of the marker comment.
 */
export function Island<N extends IslandName>({
  name,
  props,
  mode = 'load',
}: {
  name: N;
  props: ComponentProps<(typeof islands)[N]>;
  /** `never`: the component's server HTML alone, never hydrated, its code not shipped (a visitor's view of a shopper's island). */
  mode?: HydrationMode | 'never';
}) {
  const state = useRenderState();
  if (mode === 'never') {
    const index = state.pending.length;
    const marker = `<!--island:${state.prefix}${index}-->`;
    state.pending.push({ marker, name, props, prefix: `${state.prefix}${index}-` });
    // biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed marker comment, replaced by the component's server HTML.
    return <div style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: marker }} />;
  }
  const src = state.manifest.islands[name];
  if (!src) throw new Error(`Island ${name} is not in the asset manifest: run \`bun run build\``);
  state.islandsUsed.add(name);
  const index = state.pending.length;
  const prefix = `${state.prefix}${index}-`;
  const marker = `<!--island:${state.prefix}${index}-->`;
  state.pending.push({ marker, name, props, prefix });
  return (
    <div data-island={name} data-mode={mode} data-src={src} data-prefix={prefix} style={{ display: 'contents' }}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: serializeProps escapes <, > and & so the JSON cannot close the script. */}
      <script type="application/json" dangerouslySetInnerHTML={{ __html: serializeProps(props) }} />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed marker comment, replaced by the island's server HTML. */}
      <div data-island-root="" style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: marker }} />
    </div>
  );
}
