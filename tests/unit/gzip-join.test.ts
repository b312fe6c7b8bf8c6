import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { gunzipSync } from 'node:zlib';
import { JoinedPiece, joinGzip, joinPlain, Piece } from '../../src/http/gzip-join.ts';

describe('pages joined from pieces compressed apart', () => {
  test('any pieces, compressed apart and joined, gunzip to the pieces in order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 3000 }), { maxLength: 6 }), (texts) => {
        const pieces = texts.map((text) => new Piece(text));
        for (const piece of pieces) void piece.deflated;
        const joined = joinGzip(pieces);
        expect(gunzipSync(joined).toString('utf8')).toBe(texts.join(''));
        expect(Buffer.from(joinPlain(pieces)).toString('utf8')).toBe(texts.join(''));
      }),
      { numRuns: 200 },
    );
  });

  test('a piece not compressed yet makes the page compressed in one go, with the same text', () => {
    const cached = new Piece('<header>cached</header>'.repeat(40));
    void cached.deflated;
    const fresh = new Piece('<main>rendered for this request</main>'.repeat(40));
    const body = joinGzip([cached, fresh]);
    expect(fresh.isCompressed).toBe(false);
    expect(gunzipSync(body).toString('utf8')).toBe(`${'<header>cached</header>'.repeat(40)}${'<main>rendered for this request</main>'.repeat(40)}`);
  });

  test('asked to deflate, a join compresses the pieces not compressed yet and keeps them so (a cached page first joined)', () => {
    const viewer = new Piece('<header>yours</header>'.repeat(40));
    void viewer.deflated;
    const kept = new Piece('<main>kept for everyone</main>'.repeat(40));
    const body = joinGzip([viewer, kept], { deflate: true });
    expect(kept.isCompressed).toBe(true);
    expect(gunzipSync(body).toString('utf8')).toBe(`${'<header>yours</header>'.repeat(40)}${'<main>kept for everyone</main>'.repeat(40)}`);
  });

  test('a page laid from its own text (stored when short, level 1 when long) and kept pieces gunzips to its text', () => {
    const kept = new Piece('<section>kept fragment</section>'.repeat(50));
    const texts = ['<html><body>', '<main>'.repeat(300), '</body></html>'];
    const page = new JoinedPiece([new Piece(texts[0]!, true), kept, new Piece(texts[1]!, true), kept, new Piece(texts[2]!, true)]);
    const whole = `${texts[0]}${kept.text}${texts[1]}${kept.text}${texts[2]}`;
    expect(page.text).toBe(whole);
    expect(gunzipSync(joinGzip([page], { deflate: true })).toString('utf8')).toBe(whole);
    expect(kept.isCompressed).toBe(true);
  });

  test('a large repetitive page still gunzips whole (lengths and checksums over 64 KiB)', () => {
    const texts = ['<li>ü€😀</li>'.repeat(20_000), 'x'.repeat(70_000), ''];
    const pieces = texts.map((text) => new Piece(text));
    for (const piece of pieces) void piece.deflated;
    expect(gunzipSync(joinGzip(pieces)).toString('utf8')).toBe(texts.join(''));
  });
});
