/**
 * Client build: one bundle per island plus the hydration runtime (code-split, minified,
 * content-hashed), one UnoCSS stylesheet generated from the sources, and dist/manifest.json.
 */
import { createGenerator } from '@unocss/core';
import { Glob } from 'bun';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { AssetManifest } from '../src/assets.ts';
import { unoConfig } from './theme.ts';

const root = resolve(import.meta.dir, '..');
const outdir = join(root, 'dist', 'assets');

export async function build(): Promise<AssetManifest> {
  const started = performance.now();
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });

  const islandEntries = [...new Glob('src/islands/[A-Z]*.tsx').scanSync({ cwd: root })].sort();
  const result = await Bun.build({
    entrypoints: [join(root, 'src/islands/runtime.ts'), join(root, 'src/client/image-fallback.ts'), ...islandEntries.map((entry) => join(root, entry))],
    outdir,
    target: 'browser',
    format: 'esm',
    splitting: true,
    minify: true,
    sourcemap: 'none',
    naming: { entry: '[name]-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: '[name]-[hash].[ext]' },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error('Client build failed');
  }

  const manifest: AssetManifest = { css: '', runtime: '', imageFallback: '', islands: {} };
  for (const output of result.outputs) {
    if (output.kind !== 'entry-point') continue;
    const file = basename(output.path);
    const name = file.replace(/-[a-z0-9]+\.js$/, '');
    if (name === 'runtime') manifest.runtime = `/assets/${file}`;
    else if (name === 'image-fallback') manifest.imageFallback = `/assets/${file}`;
    else manifest.islands[name] = `/assets/${file}`;
  }

  manifest.css = await buildCss();
  await Bun.write(join(root, 'dist', 'manifest.json'), JSON.stringify(manifest, null, 2));
  const jsBytes = result.outputs.reduce((total, output) => total + output.size, 0);
  console.log(
    `built ${result.outputs.length} client files (${(jsBytes / 1024).toFixed(1)} KiB JS) and ${manifest.css} in ${Math.round(performance.now() - started)} ms`,
  );
  return manifest;
}

async function buildCss(): Promise<string> {
  const generator = await createGenerator(unoConfig);
  const sources = [...new Glob('src/**/*.{ts,tsx}').scanSync({ cwd: root })];
  const tokens = new Set<string>();
  for (const source of sources) {
    const code = await Bun.file(join(root, source)).text();
    await generator.applyExtractors(code, source, tokens);
  }
  const { css } = await generator.generate(tokens, { preflights: true, minify: true });
  const reset = await Bun.file(join(root, 'node_modules/@unocss/reset/tailwind.css')).text();
  const base = await Bun.file(join(root, 'src/styles/base.css')).text();
  const stylesheet = `${reset}\n${base}\n${css}`;
  const hash = Bun.hash(stylesheet).toString(36).slice(0, 10);
  const file = `app-${hash}.css`;
  await Bun.write(join(outdir, file), stylesheet);
  return `/assets/${file}`;
}

if (import.meta.main) await build();
