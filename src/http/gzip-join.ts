import { constants, deflateRawSync } from 'node:zlib';

/**
 * A piece of a page: its UTF-8 bytes and, once needed, those bytes deflated on their own.
 *
 * A page is put together from pieces rendered at different times (the shared body from the
 * page cache, the viewer's header from the viewer cache). Each piece is compressed once, as
 * raw deflate ending in a sync flush (byte-aligned, not final, no reference to anything
 * before it), so compressed pieces can be laid end to end into one valid deflate stream; a
 * gzip header, a final empty block and the CRC-32 and length of the whole make it a gzip body
 * (RFC 1951 3.2.3, RFC 1952 2.3). Varnish joins its gzipped ESI fragments the same way. The
 * cost per request is the CRC of the page (a few microseconds), not a compression.
 */
export class Piece {
  private encoded: Uint8Array | undefined;
  private compressed: Uint8Array | undefined;

  /**
   * `glue`: the text a page rendered for one request puts between its kept pieces (tags around
   * a kept fragment), compressed for that request only: a short one is sent as stored deflate
   * blocks (no compression to pay for a few hundred bytes), a longer one at level 1.
   */
  constructor(
    private readonly own: string,
    private glue = false,
  ) {}

  /** Kept in a cache from now on: compressed properly when next needed (glue was compressed fast, for one request). */
  keep(): void {
    if (!this.glue) return;
    this.glue = false;
    this.compressed = undefined;
  }

  get text(): string {
    return this.own;
  }

  /** Encoded when first needed: a page rendered for one request is sent as text. */
  get bytes(): Uint8Array {
    this.encoded ??= Buffer.from(this.text, 'utf8');
    return this.encoded;
  }

  get deflated(): Uint8Array {
    if (this.compressed === undefined) {
      if (!this.glue) this.compressed = deflateRawSync(this.bytes, { finishFlush: constants.Z_SYNC_FLUSH });
      else if (this.bytes.length <= STORED_GLUE) this.compressed = storedBlocks(this.bytes);
      else this.compressed = deflateRawSync(this.bytes, { finishFlush: constants.Z_SYNC_FLUSH, level: 1 });
    }
    return this.compressed;
  }

  /** Compressed already (kept in a cache): joining it costs no compression. */
  get isCompressed(): boolean {
    return this.compressed !== undefined;
  }

  /** The pieces this one is laid end to end from (itself when it is one). */
  get leaves(): readonly Piece[] {
    return [this];
  }
}

/**
 * Pieces laid end to end as one (a page's part around the viewer's: its own text and the kept
 * fragments in it, each compressed once, see render.tsx): its text is theirs joined, when
 * asked; it is joined compressed from theirs, so a kept fragment is never compressed again.
 */
export class JoinedPiece extends Piece {
  private joined: string | undefined;

  constructor(private readonly parts: readonly Piece[]) {
    super('');
  }

  override get text(): string {
    this.joined ??= joinPlain(this.parts);
    return this.joined;
  }

  override get bytes(): Uint8Array {
    return Buffer.concat(this.parts.map((part) => part.bytes));
  }

  override get deflated(): Uint8Array {
    return Buffer.concat(this.parts.map((part) => part.deflated));
  }

  override get isCompressed(): boolean {
    return this.parts.every((part) => part.isCompressed);
  }

  override keep(): void {
    for (const part of this.parts) part.keep();
  }

  override get leaves(): readonly Piece[] {
    return this.parts.flatMap((part) => part.leaves);
  }
}

/** Glue up to this many bytes is sent uncompressed inside the deflate stream. */
const STORED_GLUE = 512;

/** Bytes as non-final stored deflate blocks (RFC 1951 3.2.4): byte-aligned, as a sync flush leaves the stream. */
function storedBlocks(bytes: Uint8Array): Uint8Array {
  const MAX = 65_535;
  const out = new Uint8Array(bytes.length + Math.ceil(bytes.length / MAX) * 5);
  let at = 0;
  for (let start = 0; start < bytes.length; start += MAX) {
    const length = Math.min(MAX, bytes.length - start);
    // BFINAL 0, BTYPE 00, then LEN and its ones' complement NLEN, little-endian.
    out.set([0, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff], at);
    out.set(bytes.subarray(start, start + length), at + 5);
    at += 5 + length;
  }
  return out;
}

const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
/** A final fixed-Huffman block holding nothing: BFINAL=1, BTYPE=01, end-of-block. */
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

/**
 * The pieces as one gzip body: joined compressed when every piece was compressed before (the
 * cached ones) or `deflate` says to compress the rest now and keep them so (a cached page's first
 * join), else compressed in one go at level 1 (a page rendered for this request alone: four
 * times faster than level 6 for a quarter more bytes; nginx's default level too).
 */
export function joinGzip(pieces: readonly Piece[], { deflate = false }: { deflate?: boolean } = {}): Uint8Array<ArrayBuffer> {
  if (!deflate && !pieces.every((piece) => piece.isCompressed)) return Bun.gzipSync(joinPlain(pieces), { level: 1 }) as Uint8Array<ArrayBuffer>;
  let crc = 0;
  let length = 0;
  const parts: Uint8Array[] = [GZIP_HEADER];
  for (const piece of pieces.flatMap((one) => one.leaves)) {
    crc = Bun.hash.crc32(piece.bytes, crc);
    length += piece.bytes.length;
    parts.push(piece.deflated);
  }
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, length >>> 0, true);
  parts.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(parts) as Uint8Array<ArrayBuffer>;
}

/** The pieces as one uncompressed body. */
export function joinPlain(pieces: readonly Piece[]): string {
  let text = '';
  for (const piece of pieces) text += piece.text;
  return text;
}
