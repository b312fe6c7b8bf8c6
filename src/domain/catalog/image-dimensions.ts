import { imageSize as headerSize } from 'image-size';

/*
 * An image's width and height read from its header bytes, without decoding it: a 380 KB PNG
 * can declare 20000 × 20000 pixels, 1.6 GB once decoded (issue 25, row 13). The header is read
 * by the `image-size` package (PNG, JPEG, WebP, GIF and more, bounds-checked); any bytes at all
 * give an answer or null here, never a throw.
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** The largest image the store takes or draws: 8000 pixels a side and 40 megapixels. */
export const MAX_IMAGE_SIDE = 8000;
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * The size an image of `kind` (images.ts detectImageKind: 'png', 'jpg', 'webp' or 'gif') declares
 * in its header, or null when its header is missing, damaged or of another kind.
 */
export function imageSize(bytes: Uint8Array, kind: string): ImageSize | null {
  // image-size reads through the whole ArrayBuffer: a view on part of one is copied, so the
  // header is read from these bytes alone and never from whatever follows them in memory.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  try {
    const { width, height, type } = headerSize(own);
    return type === kind && width > 0 && height > 0 ? { width, height } : null;
  } catch {
    // Cut short or damaged: image-size throws (a RangeError, or 'unsupported file type').
    return null;
  }
}

/** Small enough to decode: at most MAX_IMAGE_SIDE a side and MAX_IMAGE_PIXELS in all. */
export function isDecodableSize(size: ImageSize): boolean {
  return size.width <= MAX_IMAGE_SIDE && size.height <= MAX_IMAGE_SIDE && size.width * size.height <= MAX_IMAGE_PIXELS;
}
