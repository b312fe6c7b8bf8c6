import type { ImageKind } from './images.ts';

/*
 * An image's width and height read from its header bytes, without decoding it: a 380 KB PNG
 * can declare 20000 × 20000 pixels, 1.6 GB once decoded (issue 25, row 13). Every read is
 * bounds-checked (a byte past the end reads as "unknown", never as a number), so any bytes at
 * all give an answer or null, never a throw; only indexed reads are used, so a test can watch
 * which bytes are read.
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** The largest image the store takes or draws: 8000 pixels a side and 40 megapixels. */
export const MAX_IMAGE_SIDE = 8000;
export const MAX_IMAGE_PIXELS = 40_000_000;

type Bytes = ArrayLike<number>;

const byteAt = (bytes: Bytes, at: number): number | null => (at >= 0 && at < bytes.length ? bytes[at]! : null);

function uint(bytes: Bytes, at: number, size: number, littleEndian: boolean): number | null {
  if (at < 0 || at + size > bytes.length) return null;
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + bytes[littleEndian ? at + size - 1 - i : at + i]!;
  return value;
}

const sizeOf = (width: number | null, height: number | null): ImageSize | null =>
  width !== null && height !== null && width > 0 && height > 0 ? { width, height } : null;

function pngSize(bytes: Bytes): ImageSize | null {
  // The IHDR chunk comes first: length (4), 'IHDR', width, height (big-endian).
  const ihdr = [0x49, 0x48, 0x44, 0x52].every((value, i) => byteAt(bytes, 12 + i) === value);
  return ihdr ? sizeOf(uint(bytes, 16, 4, false), uint(bytes, 20, 4, false)) : null;
}

/** Start-of-frame markers: C0 to CF but DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Bytes): ImageSize | null {
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    while (byteAt(bytes, at) === 0xff) at++;
    const marker = byteAt(bytes, at);
    if (marker === null) return null;
    at++;
    // Markers without a length: TEM, the restart markers, a second SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    // The scan or the end came before any frame header: no size to trust.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = uint(bytes, at, 2, false);
    if (length === null || length < 2) return null;
    // SOFn: length, precision, height, width. A height of 0 (set later by DNL) is refused too.
    if (isStartOfFrame(marker)) return sizeOf(uint(bytes, at + 5, 2, false), uint(bytes, at + 3, 2, false));
    at += length;
  }
  return null;
}

function webpSize(bytes: Bytes): ImageSize | null {
  const chunk = String.fromCharCode(...[12, 13, 14, 15].map((at) => byteAt(bytes, at) ?? 0));
  if (chunk === 'VP8 ') {
    // A key frame: 3 bytes of frame tag, the start code 9D 01 2A, then 14-bit width and height.
    if (byteAt(bytes, 23) !== 0x9d || byteAt(bytes, 24) !== 0x01 || byteAt(bytes, 25) !== 0x2a) return null;
    const width = uint(bytes, 26, 2, true);
    const height = uint(bytes, 28, 2, true);
    return sizeOf(width === null ? null : width & 0x3fff, height === null ? null : height & 0x3fff);
  }
  if (chunk === 'VP8L') {
    // Lossless: the signature 2F, then width - 1 and height - 1 in 14 bits each.
    if (byteAt(bytes, 20) !== 0x2f) return null;
    const bits = uint(bytes, 21, 4, true);
    return bits === null ? null : sizeOf((bits % 0x4000) + 1, (Math.floor(bits / 0x4000) % 0x4000) + 1);
  }
  if (chunk === 'VP8X') {
    // Extended: flags and reserved (4 bytes), then canvas width - 1 and height - 1 in 24 bits each.
    const width = uint(bytes, 24, 3, true);
    const height = uint(bytes, 27, 3, true);
    return sizeOf(width === null ? null : width + 1, height === null ? null : height + 1);
  }
  return null;
}

function gifSize(bytes: Bytes): ImageSize | null {
  // The logical screen: every frame is drawn on it.
  return sizeOf(uint(bytes, 6, 2, true), uint(bytes, 8, 2, true));
}

/** The size an image declares in its header, or null when its header is missing or damaged. */
export function imageSize(bytes: Bytes, kind: ImageKind): ImageSize | null {
  switch (kind) {
    case 'png':
      return pngSize(bytes);
    case 'jpg':
      return jpegSize(bytes);
    case 'webp':
      return webpSize(bytes);
    case 'gif':
      return gifSize(bytes);
  }
}

/** Small enough to decode: at most MAX_IMAGE_SIDE a side and MAX_IMAGE_PIXELS in all. */
export function isDecodableSize(size: ImageSize): boolean {
  return size.width <= MAX_IMAGE_SIDE && size.height <= MAX_IMAGE_SIDE && size.width * size.height <= MAX_IMAGE_PIXELS;
}
