import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { imageSize, isDecodableSize } from '../../src/domain/catalog/image-dimensions.ts';
import { detectImageKind, type ImageKind } from '../../src/domain/catalog/images.ts';
import { IMAGES } from '../helpers/products.ts';
import { gifDeclaring, jpegDeclaring, pngDeclaring, webpDeclaring } from '../helpers/image-headers.ts';

/*
 * Issue 25, row 13: an image's size read from its header bytes, before anything decodes it.
 * Whatever the bytes, the reader answers a size or null: it never throws and never reads a byte
 * past the end.
 */

const KINDS: readonly ImageKind[] = ['png', 'jpg', 'webp', 'gif'];

/** The bytes behind a guard that fails the test on any read outside them. */
function guarded(bytes: Uint8Array): Uint8Array {
  return new Proxy(bytes, {
    get(target, key) {
      if (typeof key === 'string' && /^-?\d+$/.test(key) && (Number(key) < 0 || Number(key) >= target.length)) {
        throw new Error(`read byte ${key} of ${target.length}`);
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('image sizes from the header', () => {
  test('each kind the store takes, at the size it declares', () => {
    expect(imageSize(pngDeclaring(20_000, 20_000), 'png')).toEqual({ width: 20_000, height: 20_000 });
    expect(imageSize(jpegDeclaring(9000, 120), 'jpg')).toEqual({ width: 9000, height: 120 });
    expect(imageSize(jpegDeclaring(640, 480, { progressive: true, padding: 3000 }), 'jpg')).toEqual({ width: 640, height: 480 });
    expect(imageSize(webpDeclaring.lossy(16_383, 2), 'webp')).toEqual({ width: 16_383, height: 2 });
    expect(imageSize(webpDeclaring.lossless(16_384, 7), 'webp')).toEqual({ width: 16_384, height: 7 });
    expect(imageSize(webpDeclaring.extended(16_000_000, 3), 'webp')).toEqual({ width: 16_000_000, height: 3 });
    expect(imageSize(gifDeclaring(65_535, 65_535), 'gif')).toEqual({ width: 65_535, height: 65_535 });
  });

  test('the tiny test images are 1 × 1', () => {
    for (const kind of KINDS) expect(imageSize(IMAGES[kind], kind)).toEqual({ width: 1, height: 1 });
  });

  test('a header cut short, a JPEG without a frame header, or a size of 0 is no size', () => {
    expect(imageSize(pngDeclaring(10, 10).subarray(0, 22), 'png')).toBeNull();
    expect(imageSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9]), 'jpg')).toBeNull();
    expect(imageSize(jpegDeclaring(100, 0), 'jpg')).toBeNull();
    expect(imageSize(webpDeclaring.extended(5, 5).subarray(0, 28), 'webp')).toBeNull();
    expect(imageSize(gifDeclaring(0, 10), 'gif')).toBeNull();
  });

  test('decodable: at most 8000 pixels a side and 40 megapixels', () => {
    expect(isDecodableSize({ width: 8000, height: 5000 })).toBe(true);
    expect(isDecodableSize({ width: 8001, height: 1 })).toBe(false);
    expect(isDecodableSize({ width: 1, height: 8001 })).toBe(false);
    expect(isDecodableSize({ width: 7000, height: 7000 })).toBe(false);
    expect(isDecodableSize({ width: 20_000, height: 20_000 })).toBe(false);
  });

  test('property: random bytes, and random bytes after a real signature, never throw nor read past the end', () => {
    const signatures = [[], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]];
    fc.assert(
      fc.property(fc.constantFrom(...signatures), fc.uint8Array({ maxLength: 64 }), fc.constantFrom(...KINDS), (signature, tail, kind) => {
        const bytes = Uint8Array.from([...signature, ...tail]);
        const size = imageSize(guarded(bytes), kind);
        if (size !== null) expect(size.width > 0 && size.height > 0).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test('property: any real header cut anywhere or with bytes changed still answers without a throw', () => {
    const headers = [
      pngDeclaring(300, 200),
      jpegDeclaring(300, 200, { padding: 40 }),
      webpDeclaring.lossy(300, 200),
      webpDeclaring.lossless(300, 200),
      webpDeclaring.extended(300, 200),
      gifDeclaring(300, 200),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...headers),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        (header, cut, changes) => {
          const bytes = header.slice(0, cut % (header.length + 1));
          for (const [at, value] of changes) if (bytes.length) bytes[at % bytes.length] = value;
          const kind = detectImageKind(bytes);
          for (const as of kind ? [kind] : KINDS) imageSize(guarded(bytes), as);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
