import { describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { products } from '../../src/db/schema.ts';
import { countedAs, statementCounts } from '../../src/db/statement-count.ts';

/* csa_db_statements_total's source: every statement the connection runs, by the label of its scope. */

describe('statements counted at the connection', () => {
  test('Drizzle, a prepared query, raw query/prepare/run/exec: one each per run, under the scope through awaits', async () => {
    const db = await openMigratedDatabase();
    const byId = db
      .select()
      .from(products)
      .where(eq(products.id, sql.placeholder('id')))
      .prepare();
    await countedAs(db.$client, '/page', async () => {
      db.select().from(products).all();
      await Promise.resolve();
      byId.get({ id: 1 });
      db.$client.query('select 1').get();
      db.$client.prepare('select 2').all();
      await new Promise((resolve) => setTimeout(resolve, 1));
      db.$client.run('select 3');
      db.$client.exec('select 4');
      [...db.$client.query('select 5').iterate()];
    });
    expect(statementCounts(db.$client).snapshot().get('/page')).toBe(7);
  });

  test("outside a scope, or in another connection's scope, a statement counts as other", async () => {
    const one = await openMigratedDatabase();
    const two = await openMigratedDatabase();
    const before = statementCounts(one.$client).other.n;
    one.$client.query('select 1').get();
    countedAs(two.$client, '/elsewhere', () => one.$client.query('select 1').get());
    expect(statementCounts(one.$client).other.n - before).toBe(2);
    expect(statementCounts(two.$client).snapshot().get('/elsewhere')).toBeUndefined();
  });

  test("a transaction's BEGIN and COMMIT are not counted, what runs inside it is", async () => {
    const db = await openMigratedDatabase();
    countedAs(db.$client, 'job', () => db.transaction((tx) => tx.select().from(products).all()));
    expect(statementCounts(db.$client).snapshot().get('job')).toBe(1);
  });
});
