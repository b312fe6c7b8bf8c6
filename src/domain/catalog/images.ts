import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../errors.ts';
import { imageSize, isDecodableSize, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './image-dimensions.ts';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const UPLOAD_URL = /^\/uploads\/([a-f0-9]{32}\.(?:jpg|png|webp|gif))$/;

export type ImageKind = 'jpg' | 'png' | 'webp' | 'gif';

/** The image format by its first bytes; the name and the declared type are not trusted. */
export function detectImageKind(bytes: Uint8Array): ImageKind | null {
  const at = (offset: number, ...values: number[]) => values.every((value, i) => bytes[offset + i] === value);
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (at(4, 0x37, 0x61) || at(4, 0x39, 0x61))) return 'gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return null;
}

/** Uploaded product images under DATA_DIR/uploads, each under a generated name. */
export interface ImageStore {
  /** Checks the file and stores it; returns its URL. */
  save(file: Blob): Promise<string>;
  /** Removes an uploaded image by URL; other URLs (static, external) are left alone. */
  remove(url: string): void;
  /** Whether a local image URL points to a file that exists. */
  exists(url: string): boolean;
  /** The file behind an /uploads/ URL, or null. */
  fileFor(url: string): string | null;
}

export function imageStore(uploadsDir: string): ImageStore {
  mkdirSync(uploadsDir, { recursive: true });
  const fileFor = (url: string) => {
    const match = UPLOAD_URL.exec(url);
    return match ? join(uploadsDir, match[1]!) : null;
  };
  return {
    async save(file) {
      if (file.size > MAX_IMAGE_BYTES) {
        throw new DomainError(413, 'The image must be 5 MB or smaller.', { image: 'The image must be 5 MB or smaller.' });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = detectImageKind(bytes);
      if (!kind || bytes.length === 0) {
        const message = 'The image must be a JPEG, PNG, WebP or GIF file.';
        throw new DomainError(415, message, { image: message });
      }
      // Read from the header, before anything decodes it: a small file can declare a huge picture.
      const size = imageSize(bytes, kind);
      if (!size) {
        const message = 'The image could not be read: its header is damaged. Save it again as a JPEG, PNG, WebP or GIF file.';
        throw new DomainError(422, message, { image: message });
      }
      if (!isDecodableSize(size)) {
        const message = `The image is ${size.width} × ${size.height} pixels; it must be at most ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`;
        throw new DomainError(422, message, { image: message });
      }
      const name = `${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}.${kind}`;
      await Bun.write(join(uploadsDir, name), bytes);
      return `/uploads/${name}`;
    },
    remove(url) {
      const path = fileFor(url);
      if (path) rmSync(path, { force: true });
    },
    exists(url) {
      const path = fileFor(url);
      return path !== null && existsSync(path);
    },
    fileFor,
  };
}
