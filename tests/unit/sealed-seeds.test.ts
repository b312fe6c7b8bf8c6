import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  isSealed,
  keyInUse,
  loadSeedKey,
  openSeed,
  openSeedOrNull,
  parseSeedKey,
  revealedSeed,
  SEED_KEY_FILE,
  sealSeed,
  setSeedKey,
} from '../../src/domain/operations/sealed-seeds.ts';
import { drawSeed } from '../../src/domain/games/simulation.ts';

/* Unrevealed seeds are stored sealed under SEED_KEY (issue 36): AES-256-GCM, the key outside the database. */

const dirs: string[] = [];
// Other files' stores are sealed under the process's key: it is put back.
const processKey = keyInUse();
afterAll(() => {
  setSeedKey(processKey);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'csa-seed-key-'));
  dirs.push(dir);
  return dir;
};

describe('sealed seeds', () => {
  test('a sealed seed opens to itself, tells nothing of it, and differs each time it is sealed', () => {
    setSeedKey(Buffer.alloc(32, 7));
    const { seed } = drawSeed();
    const sealed = sealSeed(seed);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(seed);
    expect(Buffer.from(sealed.slice('sealed1:'.length), 'base64url').toString('hex')).not.toContain(seed);
    expect(sealSeed(seed)).not.toBe(sealed);
    expect(openSeed(sealed)).toBe(seed);
    // A revealed (plain) seed is read as it is.
    expect(openSeed(seed)).toBe(seed);
  });

  test('another key does not open it, and a changed byte is refused: no wrong seed is ever used', () => {
    setSeedKey(Buffer.alloc(32, 1));
    const { seed } = drawSeed();
    const sealed = sealSeed(seed);
    setSeedKey(Buffer.alloc(32, 2));
    expect(() => openSeed(sealed)).toThrow('A sealed seed does not open with this SEED_KEY');
    expect(openSeedOrNull(sealed)).toBeNull();
    setSeedKey(Buffer.alloc(32, 1));
    const body = Buffer.from(sealed.slice('sealed1:'.length), 'base64url');
    body[20] = body[20]! ^ 1;
    expect(() => openSeed(`sealed1:${body.toString('base64url')}`)).toThrow();
    expect(openSeed(sealed)).toBe(seed);
  });

  test('a view shows a seed only once it is plain (revealed), never a sealed text', () => {
    const { seed } = drawSeed();
    expect(revealedSeed(sealSeed(seed))).toBeNull();
    expect(revealedSeed(seed)).toBe(seed);
    expect(revealedSeed(null)).toBeNull();
  });
});

describe('SEED_KEY', () => {
  test('64 hex characters or base64 of 32 bytes; anything else is no key', () => {
    expect(parseSeedKey('ab'.repeat(32))?.length).toBe(32);
    expect(parseSeedKey(Buffer.alloc(32, 9).toString('base64'))?.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(parseSeedKey('ab'.repeat(31))).toBeUndefined();
    expect(parseSeedKey('not a key')).toBeUndefined();
  });

  test('set: it is the key, and the data folder gets no key file', () => {
    const dataDir = folder();
    expect(loadSeedKey({ seedKey: 'cd'.repeat(32), dataDir }).toString('hex')).toBe('cd'.repeat(32));
    expect(() => statSync(join(dataDir, SEED_KEY_FILE))).toThrow();
    expect(() => loadSeedKey({ seedKey: 'short', dataDir })).toThrow('SEED_KEY must be 64 hex characters');
  });

  test('unset (development): made once beside the database, readable by its owner only, and the same key at every start', () => {
    const dataDir = join(folder(), 'data');
    const key = loadSeedKey({ seedKey: undefined, dataDir });
    const file = join(dataDir, SEED_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(key.toString('hex'));
    expect(loadSeedKey({ seedKey: undefined, dataDir }).equals(key)).toBe(true);
    writeFileSync(file, 'garbage');
    expect(() => loadSeedKey({ seedKey: undefined, dataDir })).toThrow('does not hold a seed key');
  });
});
