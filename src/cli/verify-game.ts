import { verifyGame } from '../domain/games/audit.ts';
import { withStoreDatabase } from './store-file.ts';

/**
 * `bun run verify-game ID` and `csa verify-game ID`: recomputes a settled game from the store's
 * database (DATA_DIR) and prints each check; exits 0 when everything matches, 1 otherwise.
 */
export function verifyGameCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  return withStoreDatabase(args, env, 'verify-game GAME_ID', (db, id) => {
    const { ok, lines } = verifyGame(db, id);
    for (const line of lines) console.log(line);
    return ok ? 0 : 1;
  });
}

if (import.meta.main) process.exit(verifyGameCommand(process.argv.slice(2)));
