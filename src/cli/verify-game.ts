import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { verifyGame } from '../domain/games/audit.ts';

/**
 * `bun run verify-game ID` and `csa verify-game ID`: recomputes a settled game from the store's
 * database (DATA_DIR) and prints each check; exits 0 when everything matches, 1 otherwise.
 */
export function verifyGameCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  const raw = args[0] ?? '';
  if (!/^\d{1,12}$/.test(raw)) {
    console.error('Usage: verify-game GAME_ID   (reads the database in DATA_DIR, default ./data)');
    return 2;
  }
  const file = join(resolve(env.DATA_DIR || './data'), 'store.db');
  if (!existsSync(file)) {
    console.error(`No store database at ${file}. Set DATA_DIR to the store's data folder.`);
    return 2;
  }
  const db = openDatabase(file);
  try {
    const { ok, lines } = verifyGame(db, Number(raw));
    for (const line of lines) console.log(line);
    return ok ? 0 : 1;
  } finally {
    db.$client.close();
  }
}

if (import.meta.main) process.exit(verifyGameCommand(process.argv.slice(2)));
