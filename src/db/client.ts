import { Database } from 'bun:sqlite';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import { migrate } from 'drizzle-orm/bun-sqlite/migrator';
import { rmSync } from 'node:fs';
import { migrationsFolder, isEmbedded } from '../runtime-files.ts';
import * as schema from './schema.ts';

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** Opens the database file (or ':memory:') with the pragmas of DESIGN section 3. */
export function openDatabase(filename: string): Db {
  const sqlite = new Database(filename, { create: true, strict: true });
  sqlite.exec('PRAGMA journal_mode = WAL;');
  sqlite.exec('PRAGMA foreign_keys = ON;');
  sqlite.exec('PRAGMA busy_timeout = 5000;');
  sqlite.exec('PRAGMA synchronous = NORMAL;');
  return drizzle({ client: sqlite, schema });
}

export async function applyMigrations(db: Db): Promise<void> {
  const folder = await migrationsFolder();
  try {
    migrate(db, { migrationsFolder: folder });
  } finally {
    if (isEmbedded()) rmSync(folder, { recursive: true, force: true });
  }
}

/** A migrated in-memory database, for tests and tools. */
export async function openMigratedDatabase(filename = ':memory:'): Promise<Db> {
  const db = openDatabase(filename);
  await applyMigrations(db);
  return db;
}
