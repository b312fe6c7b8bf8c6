import { verifyDraw } from '../domain/promotions/mystery-audit.ts';
import { withStoreDatabase } from './store-file.ts';

/**
 * `bun run verify-draw ORDER` and `csa verify-draw ORDER`: recomputes a mystery box order's draw
 * from the store's database (DATA_DIR) and prints each check; exits 0 on a match, 1 on a
 * mismatch, 2 when it cannot check (usage, no database).
 */
export function verifyDrawCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  return withStoreDatabase(args, env, 'verify-draw ORDER_ID', (db, id) => {
    const { found, ok, lines } = verifyDraw(db, id);
    for (const line of lines) (found ? console.log : console.error)(line);
    return !found ? 2 : ok ? 0 : 1;
  });
}

if (import.meta.main) process.exit(verifyDrawCommand(process.argv.slice(2)));
