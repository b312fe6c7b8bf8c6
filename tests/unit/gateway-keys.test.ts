import { describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openMigratedDatabase } from '../../src/db/client.ts';
import { backupDatabase } from '../../src/domain/operations/backups.ts';
import { restoreStore } from '../../src/flows/restore-store.ts';
import { paymentsNeedingAttention } from '../../src/domain/payments/payment-review.ts';
import { ensureKeyPrefix, gatewayKey, gatewayKeyPrefix, KEY_PREFIX_SETTING, MAX_GATEWAY_KEY_LENGTH } from '../../src/domain/payments/keys.ts';
import { storeBeforeMigration } from '../helpers/migrations.ts';

/*
 * Issue 25, row 4: gateway keys are `{installation prefix}-{kind}-{row id}`; the prefix is random
 * per database, the same for every process on it, and made anew by `restore`.
 */

const prefixOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query('select value from app_settings where key = ?').get(KEY_PREFIX_SETTING) as { value: string } | null)?.value;
  } finally {
    db.close();
  }
};

describe('gateway keys', () => {
  test('carry the database prefix, the kind and the row id, within 40 characters', async () => {
    const db = await openMigratedDatabase();
    const prefix = gatewayKeyPrefix(db);
    expect(prefix).toMatch(/^[a-z2-7]{8}$/);
    expect(gatewayKey(db, 'charge', 12)).toBe(`${prefix}-charge-12`);
    expect(gatewayKey(db, 'charge', 12, 3)).toBe(`${prefix}-charge-12-3`);
    expect(gatewayKey(db, 'refund', 12)).toBe(`${prefix}-refund-12`);
    // The longest the store makes: a card save of user 999,999,999 with its 16-character request hash.
    const longest = gatewayKey(db, 'card', 999_999_999, 'f'.repeat(16));
    expect(longest.length).toBeLessThanOrEqual(MAX_GATEWAY_KEY_LENGTH);
    expect(gatewayKey(db, 'hold', 2_000_000_000, Date.UTC(2100, 0, 1).toString(36)).length).toBeLessThanOrEqual(MAX_GATEWAY_KEY_LENGTH);
    expect(() => gatewayKey(db, 'card', 'x'.repeat(40))).toThrow('too long');
  });

  test('each database has its own prefix, kept across openings and shared by processes starting at once', async () => {
    const a = await openMigratedDatabase();
    const b = await openMigratedDatabase();
    expect(gatewayKeyPrefix(a)).not.toBe(gatewayKeyPrefix(b));

    const file = join(mkdtempSync(join(tmpdir(), 'csa-keys-')), 'store.db');
    (await openMigratedDatabase(file)).$client.close();
    // Two connections race to make it: both read the one that was written first.
    const first = openDatabase(file);
    const second = openDatabase(file);
    expect(ensureKeyPrefix(first.$client)).toBe(ensureKeyPrefix(second.$client));
    const made = gatewayKeyPrefix(first);
    first.$client.close();
    second.$client.close();
    expect(gatewayKeyPrefix(openDatabase(file))).toBe(made);
  });

  test('restore gives the restored copy a new prefix, and keeps every other setting and row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csa-keys-restore-'));
    mkdirSync(join(dir, 'live'));
    const db = await openMigratedDatabase(join(dir, 'live', 'store.db'));
    const before = gatewayKeyPrefix(db);
    db.$client.query("insert into app_settings (key, value, updated_at) values ('admin_pin', 'kept', 1)").run();
    const file = join(dir, 'backups', 'before.db');
    backupDatabase(db, file, join(dir, 'live', 'uploads'));
    expect(prefixOf(file)).toBe(before);

    const restored = restoreStore(file, join(dir, 'restored'));
    expect(restored.keyPrefix).toMatch(/^[a-z2-7]{8}$/);
    expect(restored.keyPrefix).not.toBe(before);
    expect(prefixOf(restored.database)).toBe(restored.keyPrefix);
    // The backup itself is untouched: restoring it again makes yet another prefix.
    expect(prefixOf(file)).toBe(before);
    const again = restoreStore(file, join(dir, 'restored-again'));
    expect(again.keyPrefix).not.toBe(restored.keyPrefix);
    const copy = openDatabase(restored.database);
    expect(gatewayKey(copy, 'charge', 1)).toBe(`${restored.keyPrefix}-charge-1`);
    expect(copy.$client.query("select value from app_settings where key = 'admin_pin'").get()).toEqual({ value: 'kept' });
  });
});

describe('migration 0009: one gateway payment per row', () => {
  test('a store where one payment already paid two orders migrates: the first keeps it, the second is unlinked, noted and listed for the admin', async () => {
    // The store as it was before 0009.
    const store = storeBeforeMigration('0009_');
    const { db } = store;
    const sql = db.$client;
    sql.query("insert into users (id, username, password_hash, created_at) values (1, 'shopper', 'x', 1)").run();
    const insert = sql.query(
      "insert into payments (id, user_id, kind, status, amount_cents, gateway, gateway_payment_id, idempotency_key, created_at, updated_at) values (?, 1, 'order_charge', 'captured', 540, 'square', ?, ?, 1, 1)",
    );
    insert.run(1, 'sq-shared', 'order-12-charge');
    insert.run(2, 'sq-shared', 'order-13-charge');
    insert.run(3, 'sq-own', 'order-14-charge');
    insert.run(4, null, 'order-15-charge');

    await store.migrateRest();
    const rows = sql.query('select id, gateway_payment_id as gatewayPaymentId, review_note as note from payments order by id').all() as {
      id: number;
      gatewayPaymentId: string | null;
      note: string | null;
    }[];
    expect(rows.map((row) => row.gatewayPaymentId)).toEqual(['sq-shared', null, 'sq-own', null]);
    expect(rows[1]!.note).toContain('Gateway payment sq-shared also paid payment #1');
    expect(rows.filter((row) => row.note !== null).map((row) => row.id)).toEqual([2]);
    expect(() => sql.query("update payments set gateway_payment_id = 'sq-own' where id = 4").run()).toThrow('UNIQUE');
    expect(paymentsNeedingAttention(db, 10).map((item) => [item.paymentId, item.problem, item.actions])).toEqual([[2, 'shared_payment', ['dismiss']]]);
  });
});
