import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Unrevealed seeds (a game's, a mystery box's) are stored sealed: AES-256-GCM under SEED_KEY,
 * a key kept outside the database file, so a copied or leaked backup tells nobody a future draw
 * (docs/fairness.md, "Secret seeds, backups and restores"). A seed is written plain once it is revealed
 * (settled or canceled game, a box seed that has drawn): it is public then, and verify-game and
 * verify-draw need no key.
 *
 * One process serves one store, so the key is the process's, like its configuration: server.ts
 * sets it before anything reads or writes a seed. A process that never set one (tests, a
 * one-off script) seals under a random key of its own, which only that process can open.
 */

const PREFIX = 'sealed1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds a sealed text to what it is, so no other ciphertext under the key passes for a seed.
const AAD = Buffer.from('csa-seed-v1');

export const SEED_KEY_FILE = 'seed.key';
export const SEED_KEY_REQUIRED =
  'SEED_KEY is required when NODE_ENV=production: the key that keeps unrevealed draw seeds secret, outside the database and its backups. Make one with `openssl rand -hex 32` and keep it with your other secrets (not beside the backups).';

let current: Buffer | undefined;

/** The key as written in SEED_KEY or seed.key: 64 hex characters or base64 of 32 bytes; undefined when it is neither. */
export function parseSeedKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 32) return bytes;
  }
  return undefined;
}

/**
 * SEED_KEY when set; otherwise (never in production: config.ts refuses) DATA_DIR/seed.key, made
 * on first use with mode 0600. Beside the database, not inside it: `backup` copies the database
 * file only, so the key does not travel with the backups.
 */
export function loadSeedKey(options: { seedKey: string | undefined; dataDir: string }): Buffer {
  if (options.seedKey) {
    const key = parseSeedKey(options.seedKey);
    if (!key) throw new Error('SEED_KEY must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`');
    return key;
  }
  const file = join(options.dataDir, SEED_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    // 'wx': two processes starting at once never overwrite each other's key; the loser reads the winner's.
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    chmodSync(file, 0o600);
  }
  const key = parseSeedKey(readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a seed key (64 hex characters); restore it from where you keep it, or set SEED_KEY`);
  return key;
}

/** Sets the process's key (server start-up, the restore command, tests). */
export function setSeedKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('A seed key is 32 bytes.');
  current = key;
}

/** The process's key (made at random when none was set): tests that change it put it back. */
export function keyInUse(): Buffer {
  current ??= randomBytes(32);
  return current;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** A seed (hex) as it is stored while secret. */
export function sealSeed(seed: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyInUse(), iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(seed, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The seed (hex) of a stored value, sealed or plain; throws when it was sealed under another key. */
export function openSeed(stored: string): string {
  if (!isSealed(stored)) return stored;
  const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyInUse(), bytes.subarray(0, IV_BYTES));
  decipher.setAAD(AAD);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('A sealed seed does not open with this SEED_KEY: start the store with the key it was sealed under.');
  }
}

/** The seed when it can be opened, else null (sealed under a key this process does not have). */
export function openSeedOrNull(stored: string | null): string | null {
  if (stored === null) return null;
  try {
    return openSeed(stored);
  } catch {
    return null;
  }
}

/** What a revealed view may show: the plain seed, never a sealed text. */
export function revealedSeed(stored: string | null): string | null {
  return stored !== null && !isSealed(stored) ? stored : null;
}
