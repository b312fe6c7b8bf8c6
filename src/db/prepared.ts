import type { Database, SQLQueryBindings, Statement } from 'bun:sqlite';
import type { Queryable } from './client.ts';

/*
 * Drizzle builds a query's SQL again on every call: walking the builder, escaping names and
 * merging chunks cost more than SQLite running a small indexed read (issue 35: about 30% of the
 * fast suite's CPU, and most of a signed-in page's own work). Drizzle's `.prepare()` with
 * `sql.placeholder` builds once, but per database: a process with one database pays once, while
 * tests open hundreds. Here the query is built once per process, and each connection only gets
 * its own SQLite statement for that SQL text (the connection's statement cache, statement-cache.ts,
 * so it is compiled once per connection and counted like every other).
 *
 * What this relies on of Drizzle's bun-sqlite driver, pinned by tests/unit/prepared-once.test.ts:
 * a prepared query keeps its statement in `stmt` and its SQL in `query.sql`, and the rest of it
 * (the columns to map, the placeholders' order) does not depend on the database; a transaction
 * reaches its connection through `session.client`.
 */

interface BunPreparedQuery {
  stmt: Statement;
  query: { sql: string };
}

/** The SQLite connection under a database or a transaction on it. */
export function connectionOf(db: Queryable): Database {
  const direct = (db as { $client?: Database }).$client;
  if (direct) return direct;
  const client = (db as unknown as { session?: { client?: Database } }).session?.client;
  if (!client) throw new Error('no SQLite connection under this database');
  return client;
}

/**
 * A Drizzle query with placeholders, built the first time it is asked for and run on any
 * database: `const byId = preparedOnce((db) => db.select().from(t).where(eq(t.id, sql.placeholder('id'))).prepare())`,
 * then `byId(db).get({ id })`. Inside a transaction, pass the transaction (or the database: the
 * same connection either way).
 */
export function preparedOnce<Q extends object>(build: (db: Queryable) => Q): (db: Queryable) => Q {
  let template: (Q & BunPreparedQuery) | undefined;
  const bound = new WeakMap<Database, Q>();
  return (db) => {
    const connection = connectionOf(db);
    let query = bound.get(connection);
    if (query === undefined) {
      if (template === undefined) {
        template = build(db) as Q & BunPreparedQuery;
        query = template;
      } else {
        query = Object.assign(Object.create(Object.getPrototypeOf(template)), template, { stmt: connection.prepare(template.query.sql) }) as Q;
      }
      bound.set(connection, query);
    }
    return query;
  };
}

/**
 * A statement whose SQL Drizzle writes once per process (a query's `.toSQL().sql`), for reads
 * that take their rows as arrays: each call is the connection's kept statement for that text.
 */
export function statementOnce<Params extends SQLQueryBindings[] = SQLQueryBindings[], Row = unknown[]>(
  build: (db: Queryable) => string,
): (db: Queryable) => Statement<Row, Params> {
  let text: string | undefined;
  return (db) => {
    text ??= build(db);
    return connectionOf(db).prepare(text) as unknown as Statement<Row, Params>;
  };
}
