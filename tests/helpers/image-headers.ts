import { deflateSync } from 'node:zlib';

/*
 * Image files made in the test, of any declared size: the header says width × height, the
 * picture data is a few bytes. Enough for anything that reads sizes from headers, and never a
 * big file in the repository.
 */

const be32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
const le16 = (value: number) => [value & 0xff, (value >>> 8) & 0xff];
const le24 = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
const le32 = (value: number) => [...le16(value & 0xffff), ...le16(value >>> 16)];
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

function pngChunk(type: string, data: Uint8Array | number[]): number[] {
  const body = Uint8Array.from([...ascii(type), ...data]);
  return [...be32(data.length), ...body, ...be32(Bun.hash.crc32(body) >>> 0)];
}

/** An RGB PNG that declares width × height; its IDAT is one compressed row of zeros. */
export function pngDeclaring(width: number, height: number): Uint8Array {
  const ihdr = [...be32(width), ...be32(height), 8, 2, 0, 0, 0];
  return Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...pngChunk('IHDR', ihdr),
    ...pngChunk('IDAT', deflateSync(new Uint8Array(1 + 3 * Math.min(width, 64)))),
    ...pngChunk('IEND', []),
  ]);
}

/** A baseline (SOF0) or progressive (SOF2) JPEG header that declares width × height, after an APP segment of `padding` bytes. */
export function jpegDeclaring(width: number, height: number, { progressive = false, padding = 14 } = {}): Uint8Array {
  const app = [0xff, 0xe1, ...[(padding + 2) >> 8, (padding + 2) & 0xff], ...new Array(padding).fill(0x20)];
  const sof = [0xff, progressive ? 0xc2 : 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00];
  return Uint8Array.from([0xff, 0xd8, ...app, ...sof, 0xff, 0xd9]);
}

function riff(chunk: string, data: number[]): Uint8Array {
  const body = [...ascii(chunk), ...le32(data.length), ...data];
  return Uint8Array.from([...ascii('RIFF'), ...le32(4 + body.length), ...ascii('WEBP'), ...body]);
}

/** WebP headers of each kind that declare width × height. */
export const webpDeclaring = {
  lossy: (width: number, height: number) => riff('VP8 ', [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height), 0, 0]),
  lossless: (width: number, height: number) => {
    const bits = width - 1 + (height - 1) * 0x4000;
    return riff('VP8L', [0x2f, ...le32(bits), 0, 0]);
  },
  extended: (width: number, height: number) => riff('VP8X', [0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]),
};

/** A GIF89a whose logical screen is width × height. */
export function gifDeclaring(width: number, height: number): Uint8Array {
  return Uint8Array.from([...ascii('GIF89a'), ...le16(width), ...le16(height), 0, 0, 0, 0x3b]);
}
