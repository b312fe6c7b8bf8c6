import { describe, expect, spyOn, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { eq, sql } from 'drizzle-orm';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { products } from '../../src/db/schema.ts';
import { keptStatements, STATEMENT_CACHE_SIZE } from '../../src/db/statement-cache.ts';

/*
 * The soak (issue 26 row 4): drizzle prepared a new native statement for every query it ran and
 * never finalized it (~4,000 a second under orders and plays), so native memory grew while the JS
 * heap did not. A query run again must reuse its statement, and the kept statements stay bounded.
 */
describe('prepared statements', () => {
  test('the same query run a thousand times with different values is prepared once', async () => {
    const db = await openMigratedDatabase();
    const prepare = spyOn(Database.prototype, 'prepare');
    try {
      for (let id = 1; id <= 1000; id++) db.select({ id: products.id }).from(products).where(eq(products.id, id)).all();
      db.select({ id: products.id }).from(products).where(eq(products.id, 1)).get();
      expect(prepare.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      prepare.mockRestore();
      db.$client.close();
    }
  });

  test('statements for ever new SQL texts stay within the bound and still answer right', async () => {
    const db = await openMigratedDatabase();
    for (let n = 0; n < STATEMENT_CACHE_SIZE + 200; n++) {
      expect(db.all<{ n: number }>(sql.raw(`select ${n} as n`))).toEqual([{ n }]);
    }
    expect(keptStatements(db.$client)).toBe(STATEMENT_CACHE_SIZE);
    db.$client.close();
  });

  test('a statement kept by a query prepared earlier still runs after its SQL left the cache', async () => {
    const db = await openMigratedDatabase();
    const kept = db.select({ n: sql<number>`count(*)` }).from(products).prepare();
    for (let n = 0; n < STATEMENT_CACHE_SIZE + 10; n++) db.all(sql.raw(`select ${n}`));
    expect(kept.get()?.n).toBe(0);
    db.$client.close();
  });

  test('a closed database fails its queries as before, kept statements or not', async () => {
    const db = await openMigratedDatabase();
    const read = () => db.select({ id: products.id }).from(products).all();
    expect(read()).toEqual([]);
    db.$client.close();
    expect(read).toThrow();
  });
});
