import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { verifyDraw } from '../domain/promotions/mystery-audit.ts';

/**
 * `bun run verify-draw ORDER` and `csa verify-draw ORDER`: recomputes a mystery box order's draw
 * from the store's database (DATA_DIR) and prints each check; exits 0 on a match, 1 on a
 * mismatch, 2 when it cannot check (usage, no database).
 */
export function verifyDrawCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  const raw = args[0] ?? '';
  if (!/^\d{1,12}$/.test(raw)) {
    console.error('Usage: verify-draw ORDER_ID   (reads the database in DATA_DIR, default ./data)');
    return 2;
  }
  const file = join(resolve(env.DATA_DIR || './data'), 'store.db');
  if (!existsSync(file)) {
    console.error(`No store database at ${file}. Set DATA_DIR to the store's data folder.`);
    return 2;
  }
  const db = openDatabase(file);
  try {
    const { found, ok, lines } = verifyDraw(db, Number(raw));
    for (const line of lines) (found ? console.log : console.error)(line);
    return !found ? 2 : ok ? 0 : 1;
  } finally {
    db.$client.close();
  }
}

if (import.meta.main) process.exit(verifyDrawCommand(process.argv.slice(2)));
