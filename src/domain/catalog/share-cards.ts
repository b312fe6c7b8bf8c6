import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { projectFile } from '../../runtime-files.ts';
import { defaultImageFor, productLabel, productTitle, productTypeLabels } from './catalog.ts';
import { formatDollars } from '../../shared/money.ts';
import { detectImageKind, type ImageStore } from './images.ts';
import { imageSize, isDecodableSize } from './image-dimensions.ts';
import type { ProductType } from '../../db/schema.ts';

/*
 * The picture a shared product link shows (Facebook, X, WhatsApp, iMessage): a 1200 × 630 PNG
 * with the product image, its name and price. Crawlers do not render SVG, and the seeded
 * images are SVGs, so each card is drawn with resvg (WebAssembly: it runs in the compiled
 * binary, where sharp's native module does not) with the DejaVu fonts, once per version of
 * the product, and kept under DATA_DIR/share-cards.
 */

export const SHARE_CARD_SIZE = { width: 1200, height: 630 } as const;
/** Bump when the drawing changes, so every card is drawn again under a new URL. */
const LAYOUT_VERSION = 1;

export const RUNTIME_FILES = {
  wasm: 'node_modules/@resvg/resvg-wasm/index_bg.wasm',
  fonts: ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', 'DejaVuSerif-Italic.ttf'].map(
    (name) => `node_modules/dejavu-fonts-ttf/ttf/${name}`,
  ),
};

export interface ShareCardProduct {
  id: number;
  productType: ProductType;
  name?: string | null;
  brand: string;
  model: string;
  description: string;
  price: number;
  imageUrl: string;
}

/** Changes whenever anything drawn on the card changes, so a new card gets a new URL. */
export function shareCardKey(product: ShareCardProduct): string {
  const drawn = [LAYOUT_VERSION, product.productType, product.name ?? null, product.brand, product.model, product.description, product.price, product.imageUrl];
  return Bun.hash(JSON.stringify(drawn)).toString(36);
}

export function shareCardPath(product: ShareCardProduct): string {
  return `/share/product/${product.id}-${shareCardKey(product)}.png`;
}

/** The og:image of a product page: its card, with the size crawlers need before they fetch it. */
export function shareCardImage(product: ShareCardProduct) {
  const { name, subtitle } = productTitle(product);
  return {
    url: shareCardPath(product),
    ...SHARE_CARD_SIZE,
    type: 'image/png' as const,
    alt: `${name} ${subtitle}, $${product.price.toFixed(2)}, at the Competitive Shopping Association`,
  };
}

/**
 * The title and description a shared link shows (og:title, og:description, the page's own
 * title): with `?size=` the size the sharer chose, and its own price, is named in both, so a
 * friend sees what they were sent (issue 38).
 */
export function sharePreview(product: ShareCardProduct, size?: { size: string; price: number }): { title: string; description: string } {
  const { name, subtitle, text } = productTitle(product);
  const label = product.productType === 'book' ? `${name} ${subtitle}` : productLabel(product);
  const price = formatDollars(size?.price ?? product.price);
  if (!size) return { title: label, description: text ? text.slice(0, 160) : `${label}, ${price} at the Competitive Shopping Association.` };
  const lead = `Size ${size.size}, ${price}.`;
  return {
    title: `${label}, size ${size.size}`,
    description: text ? `${lead} ${text}`.slice(0, 160) : `${label} in size ${size.size}, ${price} at the Competitive Shopping Association.`,
  };
}

let renderer: Promise<Uint8Array[]> | null = null;

/** The WebAssembly module and the fonts, loaded on the first card. */
function loadRenderer(): Promise<Uint8Array[]> {
  renderer ??= (async () => {
    const wasm = projectFile(RUNTIME_FILES.wasm);
    if (!wasm) throw new Error(`${RUNTIME_FILES.wasm} is missing`);
    await initWasm(await wasm.arrayBuffer());
    return Promise.all(
      RUNTIME_FILES.fonts.map(async (path) => {
        const file = projectFile(path);
        if (!file) throw new Error(`${path} is missing`);
        return file.bytes();
      }),
    );
  })();
  return renderer;
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Greedy word wrap by character count (the fonts are close enough to monospace for a title). */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= perLine || !line) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  const kept = lines.slice(0, maxLines).map((text) => (text.length > perLine ? `${text.slice(0, perLine - 1)}…` : text));
  if (lines.length > maxLines) kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, perLine - 1).trimEnd()}…`;
  return kept;
}

export type SourceImage = { kind: 'svg'; text: string } | { kind: 'jpeg' | 'png'; bytes: Uint8Array };

const STATIC_IMAGE = /^\/static\/images\/[\w-]+(?:\/[\w-]+)*\.(?:svg|png|jpe?g)$/;

/**
 * The product's own image when this process has it and resvg can read it (SVG, PNG, JPEG) at a
 * size it may decode; otherwise (a WebP or GIF upload, an outside URL, a missing file, a photo
 * whose header declares more than 8000 pixels a side or 40 megapixels, or no size at all) the
 * type's illustration. resvg decodes a photo whole into WebAssembly memory, which never shrinks
 * again: a 20000 × 20000 upload from before sizes were checked took the process to 2.1 GB.
 */
export async function shareCardSource(product: ShareCardProduct, images: ImageStore): Promise<SourceImage> {
  const url = product.imageUrl;
  let bytes: Uint8Array | null = null;
  if (STATIC_IMAGE.test(url)) bytes = (await projectFile(url.slice(1))?.bytes()) ?? null;
  else {
    const path = images.fileFor(url);
    if (path)
      bytes = await Bun.file(path)
        .bytes()
        .catch(() => null);
  }
  if (bytes) {
    const kind = detectImageKind(bytes);
    if (kind === 'png' || kind === 'jpg') {
      const size = imageSize(bytes, kind);
      if (size && isDecodableSize(size)) return { kind: kind === 'jpg' ? 'jpeg' : 'png', bytes };
    }
    if (url.endsWith('.svg')) return { kind: 'svg', text: new TextDecoder().decode(bytes) };
  }
  const fallback = await projectFile(defaultImageFor(product.productType).slice(1))!.text();
  return { kind: 'svg', text: fallback };
}

/** The product image in a 550 px square: an SVG inline (so its text uses the same fonts), a photo as data. */
function placedImage(source: SourceImage, x: number, y: number, size: number): string {
  if (source.kind !== 'svg') {
    const data = `data:image/${source.kind};base64,${Buffer.from(source.bytes).toString('base64')}`;
    return `<image x="${x}" y="${y}" width="${size}" height="${size}" preserveAspectRatio="xMidYMid meet" href="${data}"/>`;
  }
  const open = /<svg\b[^>]*>/.exec(source.text);
  if (!open) return '';
  const viewBox = /viewBox="([^"]+)"/.exec(open[0])?.[1];
  const width = /\bwidth="([\d.]+)"/.exec(open[0])?.[1];
  const height = /\bheight="([\d.]+)"/.exec(open[0])?.[1];
  const box = viewBox ?? `0 0 ${width ?? size} ${height ?? size}`;
  const inner = source.text.slice(open.index + open[0].length, source.text.lastIndexOf('</svg>'));
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${box}" preserveAspectRatio="xMidYMid meet">${inner}</svg>`;
}

/** The card as SVG: image left, type, name, subtitle and price right, the shop at the foot. */
export function shareCardSvg(product: ShareCardProduct, image: string): string {
  const { name, subtitle } = productTitle(product);
  const text = (x: number, y: number, size: number, weight: string, fill: string, value: string, extra = '') =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" fill="${fill}"${extra}>${escapeXml(value)}</text>`;
  const parts: string[] = [];
  let y = 130;
  parts.push(text(640, y, 24, 'bold', '#f25f4c', productTypeLabels[product.productType].singular.toUpperCase(), ' letter-spacing="3"'));
  y += 24;
  for (const line of wrapText(name, 15, 2)) {
    y += 66;
    parts.push(text(640, y, 52, 'bold', '#0f2a44', line));
  }
  y += 8;
  for (const line of wrapText(subtitle, 27, 2)) {
    y += 44;
    parts.push(text(640, y, 32, 'normal', '#475569', line));
  }
  y += 84;
  parts.push(text(640, y, 60, 'bold', '#0f2a44', `$${product.price.toFixed(2)}`));
  parts.push(text(640, 548, 24, 'bold', '#0f2a44', 'Competitive Shopping Association'));
  parts.push(text(640, 584, 22, 'normal', '#475569', 'Laguna Beach · Delivered in 2-3 hours'));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_CARD_SIZE.width}" height="${SHARE_CARD_SIZE.height}" viewBox="0 0 1200 630">`,
    '<rect width="1200" height="630" fill="#f7f3ec"/>',
    '<rect x="0" y="0" width="12" height="630" fill="#f25f4c"/>',
    '<clipPath id="share-card-frame"><rect x="40" y="40" width="550" height="550" rx="28"/></clipPath>',
    '<rect x="40" y="40" width="550" height="550" rx="28" fill="#ffffff"/>',
    `<g clip-path="url(#share-card-frame)">${image}</g>`,
    ...parts,
    '</svg>',
  ].join('');
}

export async function renderShareCard(product: ShareCardProduct, images: ImageStore): Promise<Uint8Array> {
  const fontBuffers = await loadRenderer();
  const svg = shareCardSvg(product, placedImage(await shareCardSource(product, images), 40, 40, 550));
  const resvg = new Resvg(svg, {
    font: { fontBuffers, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans', serifFamily: 'DejaVu Serif' },
  });
  try {
    return resvg.render().asPng();
  } finally {
    resvg.free();
  }
}

/** Cards on disk by product and key; two requests for one new card draw it once. */
export function shareCardStore(dir: string, images: ImageStore) {
  const drawing = new Map<string, Promise<string>>();
  return {
    /** The file of the card for this version of the product, drawn first when missing. */
    async fileFor(product: ShareCardProduct): Promise<string> {
      const name = `${product.id}-${shareCardKey(product)}.png`;
      const path = join(dir, name);
      if (await Bun.file(path).exists()) return path;
      let pending = drawing.get(name);
      if (!pending) {
        pending = (async () => {
          const png = await renderShareCard(product, images);
          mkdirSync(dir, { recursive: true });
          // Written aside and renamed, so a crash never leaves half a card under the real name.
          const partial = `${path}.${process.pid}.part`;
          await Bun.write(partial, png);
          renameSync(partial, path);
          return path;
        })().finally(() => drawing.delete(name));
        drawing.set(name, pending);
      }
      return pending;
    },
  };
}
export type ShareCardStore = ReturnType<typeof shareCardStore>;
