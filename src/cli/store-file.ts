import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Db, openDatabase } from '../db/client.ts';

/**
 * What the read-only audit commands (verify-game, verify-draw) share: the id from the command
 * line and the store's database in DATA_DIR, opened for `check` and closed after. A wrong id or a
 * missing database prints why and answers 2 (cannot check).
 */
export function withStoreDatabase(args: string[], env: Record<string, string | undefined>, usage: string, check: (db: Db, id: number) => number): number {
  const raw = args[0] ?? '';
  if (!/^\d{1,12}$/.test(raw)) {
    console.error(`Usage: ${usage}   (reads the database in DATA_DIR, default ./data)`);
    return 2;
  }
  const file = join(resolve(env.DATA_DIR || './data'), 'store.db');
  if (!existsSync(file)) {
    console.error(`No store database at ${file}. Set DATA_DIR to the store's data folder.`);
    return 2;
  }
  const db = openDatabase(file);
  try {
    return check(db, Number(raw));
  } finally {
    db.$client.close();
  }
}
