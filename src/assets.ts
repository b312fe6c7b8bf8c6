import { projectFile } from './runtime-files.ts';

/** What `bun run build` wrote: hashed URLs of the stylesheet, the island runtime and each island. */
export interface AssetManifest {
  css: string;
  runtime: string;
  /** The tiny script that swaps broken external images for defaults. */
  imageFallback: string;
  islands: Record<string, string>;
}

export async function loadManifest(): Promise<AssetManifest> {
  const file = projectFile('dist/manifest.json');
  if (!file) {
    throw new Error('dist/manifest.json is missing: run `bun run build` first.');
  }
  return (await file.json()) as AssetManifest;
}
