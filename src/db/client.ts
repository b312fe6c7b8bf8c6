import { Database } from 'bun:sqlite';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { rmSync } from 'node:fs';
import { migrationsFolder, isEmbedded } from '../runtime-files.ts';
import { cacheStatements } from './statement-cache.ts';

/*
 * Without drizzle's relational schema: nothing here uses `db.query`, and building its relations
 * config cost every new connection about as much as SQLite reading the schema (tests open hundreds).
 */
export type Db = BunSQLiteDatabase & { $client: Database };

/**
 * The database or a transaction on it: what a read or write that may run inside a caller's
 * transaction takes. (A transaction has no `$client`: what needs the raw connection takes `Db`.)
 */
export type Queryable = BaseSQLiteDatabase<'sync', void>;

/** How long a statement waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;
const INCREMENTAL = 2;

/**
 * Opens the database file (or ':memory:') with the pragmas of DESIGN section 3. Several
 * processes may share the file (docs/operations.md): every transaction begins IMMEDIATE, so
 * it takes the write lock first and waits (busy timeout) instead of failing with
 * SQLITE_BUSY_SNAPSHOT when it writes after reading.
 */
export function openDatabase(filename: string): Db {
  return withPragmas(new Database(filename, { create: true, strict: true }));
}

function withPragmas(sqlite: Database): Db {
  sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};`);
  enableIncrementalVacuum(sqlite);
  sqlite.exec('PRAGMA journal_mode = WAL;');
  sqlite.exec('PRAGMA foreign_keys = ON;');
  sqlite.exec('PRAGMA synchronous = NORMAL;');
  const db = drizzle({ client: cacheStatements(sqlite) });
  const deferred = db.transaction.bind(db);
  db.transaction = (run, config) => deferred(run, { behavior: 'immediate', ...config });
  return db;
}

/**
 * Freed pages go back to the file system a little at a time (the retention job's
 * `PRAGMA incremental_vacuum`), so the file stops growing. A new file gets the mode before its
 * first table; a file made before this converts once, with a VACUUM.
 */
function enableIncrementalVacuum(sqlite: Database): void {
  const mode = sqlite.query<{ auto_vacuum: number }, []>('PRAGMA auto_vacuum').get()?.auto_vacuum;
  if (mode === INCREMENTAL) return;
  sqlite.exec('PRAGMA auto_vacuum = INCREMENTAL;');
  const tables = sqlite.query<{ n: number }, []>("select count(*) as n from sqlite_master where type = 'table'").get()?.n ?? 0;
  if (tables > 0) sqlite.exec('VACUUM;');
}

/**
 * `prepare(db)` run once per database and kept: for the statements every request runs, whose
 * building and preparing cost more than running them (Drizzle's `.prepare()` with
 * `sql.placeholder`: the query builder runs once, each call only binds and runs).
 */
export function preparedPerDb<T, D extends Queryable = Db>(prepare: (db: D) => T): (db: D) => T {
  // Keyed by the database (or a transaction on it: one that runs inside a caller's transaction
  // prepares again, which is rare; the database's own statements are kept for good).
  const kept = new WeakMap<D, T>();
  return (db) => {
    let statements = kept.get(db);
    if (statements === undefined) {
      statements = prepare(db);
      kept.set(db, statements);
    }
    return statements;
  };
}

const readStatements = preparedPerDb((db) => ({ begin: db.$client.prepare('BEGIN DEFERRED'), commit: db.$client.prepare('COMMIT') }));

/**
 * Several reads as one snapshot under one lock. In WAL mode a statement outside a transaction
 * takes and drops the read lock itself, about 4 µs on a file (more than a small read), so the
 * reads every request makes go together. Reads only: a write inside would have to upgrade the
 * lock, which fails (SQLITE_BUSY_SNAPSHOT) when another process wrote in between.
 */
export function readTogether<T>(db: Db, read: () => T): T {
  if (db.$client.inTransaction) return read();
  const statements = readStatements(db);
  statements.begin.run();
  try {
    return read();
  } finally {
    statements.commit.run();
  }
}

/*
 * The migrations as read from their folder, kept per folder: reading and hashing every file cost
 * each store opened from a file (tests open hundreds) more than applying none of them. The
 * compiled binary writes them to a new folder each time, so its reads are never reused.
 */
const readMigrations = new Map<string, ReturnType<typeof readMigrationFiles>>();
function migrationsIn(folder: string): ReturnType<typeof readMigrationFiles> {
  let migrations = readMigrations.get(folder);
  if (migrations === undefined) {
    migrations = readMigrationFiles({ migrationsFolder: folder });
    if (!isEmbedded()) readMigrations.set(folder, migrations);
  }
  return migrations;
}

/**
 * Applies the migrations not yet in `__drizzle_migrations` (drizzle's table and rule: a
 * migration runs when it is newer than the last one applied). drizzle's own `migrate()` reads
 * the last applied migration before its transaction, so two processes starting on an empty
 * folder both apply the first one and the second crashes; here the read and the writes share
 * one IMMEDIATE transaction, so the second process waits and then finds nothing to do.
 */
export async function applyMigrations(db: Db): Promise<void> {
  const folder = await migrationsFolder();
  try {
    const migrations = migrationsIn(folder);
    const sqlite = db.$client;
    sqlite.exec('CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)');
    sqlite
      .transaction(() => {
        const last = sqlite.query<{ created_at: number }, []>('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1').get();
        for (const migration of migrations) {
          if (last && Number(last.created_at) >= migration.folderMillis) continue;
          for (const statement of migration.sql) if (statement.trim()) sqlite.exec(statement);
          sqlite.query('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)').run(migration.hash, migration.folderMillis);
        }
      })
      .immediate();
  } finally {
    if (isEmbedded()) rmSync(folder, { recursive: true, force: true });
  }
}

let migratedImage: Promise<Uint8Array> | undefined;

/**
 * A migrated database, for tests and tools. In memory, the migrations run once per process and
 * each database after that is a copy of the result (0.6 ms instead of 15: tests open hundreds).
 */
export async function openMigratedDatabase(filename = ':memory:'): Promise<Db> {
  if (filename !== ':memory:') {
    const db = openDatabase(filename);
    await applyMigrations(db);
    return db;
  }
  migratedImage ??= (async () => {
    const db = openDatabase(':memory:');
    await applyMigrations(db);
    return db.$client.serialize();
  })();
  return openDatabaseImage(await migratedImage);
}

/**
 * A database in memory holding a copy of `image` (a `serialize()` of another), with the same
 * pragmas and wrapping as any: tests start from a seeded store this way instead of seeding each.
 */
export function openDatabaseImage(image: Uint8Array): Db {
  return withPragmas(Database.deserialize(image, { strict: true }));
}
