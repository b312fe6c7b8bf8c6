import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restoreCommand } from '../../src/cli/backups.ts';
import { BACKUP_TAKEN_AT_SETTING } from '../../src/domain/operations/backups.ts';
import { MIN_ORDER_ID_GAP, orderIdFloor, RECOMMIT_SETTING, restoreStore } from '../../src/flows/restore-store.ts';

/*
 * After a restore, order ids continue above every id the lost store could have handed out
 * (issue 36): the backup's highest id plus twice its busiest day for each day since the backup,
 * at least MIN_ORDER_ID_GAP, and above an id the operator names.
 */

const DAY = 86_400_000;
const TAKEN = Date.UTC(2026, 10, 20, 12);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A backup file with the tables a restore reads: orders placed `perDay` a day over `days` days before TAKEN. */
function backupWith(perDay: number[], options: { stamped?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'csa-order-ids-'));
  dirs.push(dir);
  const file = join(dir, 'backup.db');
  const db = new Database(file);
  db.exec('create table orders (id integer primary key autoincrement, order_date integer not null)');
  db.exec('create table app_settings (key text primary key, value text not null, updated_at integer not null)');
  const insert = db.query('insert into orders (order_date) values (?)');
  db.transaction(() =>
    perDay.forEach((count, daysBefore) => {
      for (let i = 0; i < count; i++) insert.run(TAKEN - daysBefore * DAY - 1000 - i);
    }),
  )();
  if (options.stamped !== false) db.query('insert into app_settings values (?, ?, 1)').run(BACKUP_TAKEN_AT_SETTING, String(TAKEN));
  db.close();
  return file;
}

const nextOrderId = (database: string) => {
  const db = new Database(database);
  const id = db.query('insert into orders (order_date) values (1) returning id').get() as { id: number };
  db.close();
  return id.id;
};

describe('order ids after a restore', () => {
  test('a quiet store: at least MIN_ORDER_ID_GAP above the highest id', () => {
    const db = new Database(backupWith([3, 2]));
    expect(orderIdFloor(db, TAKEN + DAY / 2)).toBe(5 + MIN_ORDER_ID_GAP);
    db.close();
  });

  test('a busy store: twice its busiest day for every day since the backup, plus one', () => {
    // 600 orders on its busiest day in the last 30 days; restored 3 days (and a bit) after the backup.
    const db = new Database(backupWith([100, 600, 50]));
    expect(orderIdFloor(db, TAKEN + 3 * DAY + 1)).toBe(750 + 2 * 600 * (4 + 1));
    // An id the operator knows was handed out is gone above too.
    expect(orderIdFloor(db, TAKEN + 3 * DAY + 1, 100_000)).toBe(100_000 + 2 * 600 * 5);
    db.close();
  });

  test('restore puts the sequence there, marks the copy for its first start, and prints where numbers continue', () => {
    const file = backupWith([2]);
    const dataDir = join(mkdtempSync(join(tmpdir(), 'csa-order-ids-to-')), 'data');
    dirs.push(dataDir);
    const restored = restoreStore(file, dataDir, { now: TAKEN + 1000 });
    expect(restored.nextOrderId).toBe(2 + MIN_ORDER_ID_GAP + 1);
    expect(nextOrderId(restored.database)).toBe(restored.nextOrderId);
    const copy = new Database(restored.database, { readonly: true });
    expect(copy.query('select key from app_settings where key = ?').get(RECOMMIT_SETTING)).toEqual({ key: RECOMMIT_SETTING });
    copy.close();
    // The backup itself is untouched.
    const backup = new Database(file, { readonly: true });
    expect(backup.query('select count(*) as n from app_settings where key = ?').get(RECOMMIT_SETTING)).toEqual({ n: 0 });
    backup.close();
  });

  test('restore FILE --orders-above N: ids continue above N; a bad N is the usage, exit 2', () => {
    const file = backupWith([2], { stamped: false });
    const dataDir = join(mkdtempSync(join(tmpdir(), 'csa-order-ids-cli-')), 'data');
    dirs.push(dataDir);
    expect(restoreCommand([file, '--orders-above', 'many'], { DATA_DIR: dataDir })).toBe(2);
    expect(restoreCommand(['--orders-above', '5000', file], { DATA_DIR: dataDir })).toBe(0);
    expect(nextOrderId(join(dataDir, 'store.db'))).toBeGreaterThan(5000 + MIN_ORDER_ID_GAP);
  });
});
