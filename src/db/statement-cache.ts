import type { Database, Statement } from 'bun:sqlite';
import { countRuns, countStatements } from './statement-count.ts';

/** Far above the distinct statements the store runs (about 100 in a soak), so a hit is the rule. */
export const STATEMENT_CACHE_SIZE = 500;

/** A transaction's BEGIN and COMMIT are not counted: bun's transaction() runs its own uncounted. */
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * drizzle's bun-sqlite session calls `prepare(sql)` for every query it runs and never finalizes
 * the statement, so each query compiled its SQL again and left a native statement for the garbage
 * collector, which does not see native memory: about 3,800 prepares a second in the soak for 91 distinct texts, RSS growing
 * while the JS heap did not. Here one statement per SQL text is kept and reused (bun:sqlite runs
 * a statement to the end within one call, so sharing is safe). The cache is bounded and an
 * evicted statement is only dropped, not finalized: a query prepared earlier may still hold it.
 * `query` (bun's own cache of statements) takes the same cache, so every statement the
 * connection runs is one of these and is counted (statement-count.ts).
 */
export function cacheStatements(sqlite: Database, size = STATEMENT_CACHE_SIZE): Database {
  const prepare = sqlite.prepare.bind(sqlite) as (sql: string) => Statement;
  const count = countStatements(sqlite);
  const kept = new Map<string, Statement>();
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
    // bun's prepare(sql, params) binds: such a statement is the caller's, never shared.
    if (rest.length > 0) return countRuns((prepare as (sql: string, ...r: unknown[]) => Statement)(sql, ...rest), count, sql);
    let statement = kept.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (!TRANSACTION_CONTROL.test(sql)) countRuns(statement, count, sql);
      if (kept.size >= size) kept.delete(kept.keys().next().value as string);
      kept.set(sql, statement);
    }
    return statement;
  }) as Database['prepare'];
  sqlite.query = ((sql: string) => sqlite.prepare(sql)) as Database['query'];
  // A kept statement would keep a closed connection answering (SQLite closes it only once its
  // statements are finalized): closing finalizes them first, so a closed database fails as before.
  const close = sqlite.close.bind(sqlite);
  sqlite.close = ((...args: Parameters<Database['close']>) => {
    for (const statement of kept.values()) statement.finalize();
    kept.clear();
    return close(...args);
  }) as Database['close'];
  cached.set(sqlite, kept);
  return sqlite;
}

const cached = new WeakMap<Database, Map<string, Statement>>();

/** How many statements a database keeps (tests pin the bound). */
export function keptStatements(sqlite: Database): number {
  return cached.get(sqlite)?.size ?? 0;
}
