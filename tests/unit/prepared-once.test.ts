import { describe, expect, spyOn, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { eq, sql } from 'drizzle-orm';
import { openMigratedDatabase, type Db } from '../../src/db/client.ts';
import { connectionOf, preparedOnce, statementOnce } from '../../src/db/prepared.ts';
import { users } from '../../src/db/schema.ts';
import { statementCounts } from '../../src/db/statement-count.ts';

/*
 * A query built once per process and run on any database (src/db/prepared.ts). What it relies
 * on of Drizzle's bun-sqlite driver is pinned here: an upgrade that moves the statement or the
 * connection fails these tests, not a shopper's request.
 */

const userNamed = preparedOnce((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.username, sql.placeholder('username')))
    .prepare(),
);
const addUser = preparedOnce((db) =>
  db
    .insert(users)
    .values({ username: sql.placeholder('username'), passwordHash: 'x', isAdmin: sql.placeholder('isAdmin'), createdAt: sql.placeholder('at') })
    .prepare(),
);

async function storeWith(...names: string[]): Promise<Db> {
  const db = await openMigratedDatabase();
  for (const [index, username] of names.entries()) addUser(db).run({ username, isAdmin: index === 0, at: 1_000 + index });
  return db;
}

describe('a query prepared once for every database', () => {
  test('each database answers from its own rows, mapped as Drizzle maps them', async () => {
    const first = await storeWith('ana', 'ben');
    const second = await storeWith('ben');
    const plain = first.select().from(users).where(eq(users.username, 'ana')).get();
    expect(userNamed(first).get({ username: 'ana' })).toEqual(plain!);
    expect(userNamed(first).get({ username: 'ana' })?.isAdmin).toBe(true);
    expect(userNamed(second).get({ username: 'ana' })).toBeUndefined();
    expect(userNamed(second).get({ username: 'ben' })).toMatchObject({ username: 'ben', isAdmin: true, createdAt: 1_000 });
    expect(userNamed(first).get({ username: 'ben' })).toMatchObject({ username: 'ben', isAdmin: false, createdAt: 1_001 });
    first.$client.close();
    second.$client.close();
  });

  test('the query is built once: a second database compiles its statement and builds no SQL', async () => {
    const first = await storeWith('ana');
    userNamed(first).get({ username: 'ana' });
    const second = await storeWith();
    const prepare = spyOn(Database.prototype, 'prepare');
    const toSql = spyOn(second, 'select');
    try {
      for (let n = 0; n < 50; n++) userNamed(second).all({ username: `user-${n}` });
      expect(toSql).not.toHaveBeenCalled();
      expect(prepare.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      prepare.mockRestore();
      toSql.mockRestore();
      first.$client.close();
      second.$client.close();
    }
  });

  test('inside a transaction it runs on the transaction, and a rollback takes its write back', async () => {
    const db = await storeWith('ana');
    expect(connectionOf(db)).toBe(db.$client);
    expect(() =>
      db.transaction((tx) => {
        expect(connectionOf(tx)).toBe(db.$client);
        addUser(tx).run({ username: 'cleo', isAdmin: false, at: 2_000 });
        expect(userNamed(tx).get({ username: 'cleo' })?.username).toBe('cleo');
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(userNamed(db).get({ username: 'cleo' })).toBeUndefined();
    db.$client.close();
  });

  test('its runs are counted like every other statement, and a closed database refuses', async () => {
    const db = await storeWith('ana');
    const before = statementCounts(db.$client).other.n;
    userNamed(db).get({ username: 'ana' });
    userNamed(db).get({ username: 'nobody' });
    expect(statementCounts(db.$client).other.n - before).toBe(2);
    db.$client.close();
    expect(() => userNamed(db).get({ username: 'ana' })).toThrow();
  });

  test('a statement whose SQL is written once gives each database its kept statement', async () => {
    const names = statementOnce<[number]>(
      (db) =>
        db
          .select({ username: users.username })
          .from(users)
          .where(eq(users.id, sql.placeholder('id')))
          .toSQL().sql,
    );
    const first = await storeWith('ana');
    const second = await storeWith('ben');
    expect(names(first).values(1)).toEqual([['ana']]);
    expect(names(second).values(1)).toEqual([['ben']]);
    expect(names(first)).toBe(names(first));
    first.$client.close();
    second.$client.close();
  });
});
