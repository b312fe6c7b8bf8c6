import type { Database } from 'bun:sqlite';
import type { Db } from '../../db/client.ts';

/*
 * Idempotency keys as they reach the gateway (DESIGN section 5): `{installation prefix}-{kind}-{row id}`.
 *
 * Row ids repeat: a restored backup hands out again the ids made after it was taken, and a second
 * store on the same Square account counts from 1 too. Square remembers every key and finds
 * payments by reference id, so a bare `order-12-charge` could be answered with another order's
 * payment. The prefix is random per database and made anew by `restore`, so a key is never sent
 * twice for two different rows. Rows keep the key they were written with: the reconciler and
 * every retry use the stored key, never a rebuilt one.
 */

/** Square's limit for a payment's reference id (its idempotency key allows 45). */
export const MAX_GATEWAY_KEY_LENGTH = 40;
export const KEY_PREFIX_SETTING = 'gateway_key_prefix';
export type GatewayKeyKind = 'charge' | 'refund' | 'hold' | 'card';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const PREFIX_LENGTH = 8;
const PREFIX_SHAPE = /^[a-z2-7]{8}$/;

/** 8 random base32 characters: 40 bits, short enough to leave the row ids room within 40 characters. */
export function newKeyPrefix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(PREFIX_LENGTH)), (byte) => BASE32[byte & 31]).join('');
}

function readPrefix(sqlite: Database): string | undefined {
  return sqlite.query<{ value: string }, [string]>('select value from app_settings where key = ?').get(KEY_PREFIX_SETTING)?.value;
}

/**
 * The database's prefix, made on first use. Several processes may start at once: each inserts
 * its own candidate only when there is none, then all read the one that won.
 */
export function ensureKeyPrefix(sqlite: Database, now = Date.now()): string {
  sqlite.query('insert or ignore into app_settings (key, value, updated_at) values (?, ?, ?)').run(KEY_PREFIX_SETTING, newKeyPrefix(), now);
  const prefix = readPrefix(sqlite);
  if (!prefix || !PREFIX_SHAPE.test(prefix)) throw new Error(`app_settings.${KEY_PREFIX_SETTING} is not a key prefix: ${prefix}`);
  return prefix;
}

/** A new prefix for a restored copy (`restore`): keys made after the backup was taken are never made again. */
export function replaceKeyPrefix(sqlite: Database, now = Date.now()): string {
  const prefix = newKeyPrefix();
  sqlite
    .query(
      'insert into app_settings (key, value, updated_at) values (?, ?, ?) on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at',
    )
    .run(KEY_PREFIX_SETTING, prefix, now);
  return prefix;
}

// Only `restore` changes a prefix, and only into a data folder no process has open: a process keeps what it read.
const known = new WeakMap<Database, string>();

export function gatewayKeyPrefix(db: Db): string {
  const seen = known.get(db.$client);
  if (seen) return seen;
  const prefix = ensureKeyPrefix(db.$client);
  // Made inside a caller's transaction, it is not ours until that transaction commits.
  if (!db.$client.inTransaction) known.set(db.$client, prefix);
  return prefix;
}

/**
 * The one way a gateway key is made: `gatewayKey(db, 'charge', orderId)` -> 'k3x7q2mz-charge-12'.
 * Throws past 40 characters (a key that long is a bug, not a shopper's problem).
 */
export function gatewayKey(db: Db, kind: GatewayKeyKind, ...parts: (string | number)[]): string {
  const key = [gatewayKeyPrefix(db), kind, ...parts].join('-');
  if (key.length > MAX_GATEWAY_KEY_LENGTH) throw new Error(`gateway key too long: ${key}`);
  return key;
}
