import { migrate } from 'drizzle-orm/bun-sqlite/migrator';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDatabase, openMigratedDatabase } from '../../src/db/client.ts';
import { projectRoot } from '../../src/runtime-files.ts';

/**
 * A store on a file, migrated up to (not including) the migration whose tag starts with
 * `prefix` ('0010_'): a test writes the rows an older store held, then `migrateRest()` runs the
 * store's own start-up migration over them. `remove()` deletes the folder.
 */
export function storeBeforeMigration(prefix: string): { db: Db; migrateRest: () => Promise<Db>; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `csa-${prefix}`));
  const before = join(dir, 'migrations');
  cpSync(join(projectRoot, 'src/db/migrations'), before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag.startsWith(prefix));
  if (index <= 0) throw new Error(`no migration ${prefix} after the first`);
  for (const entry of journal.entries.slice(index)) rmSync(join(before, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal));
  mkdirSync(join(dir, 'data'));
  const file = join(dir, 'data', 'store.db');
  const db = openDatabase(file);
  migrate(db, { migrationsFolder: before });
  return { db, migrateRest: () => openMigratedDatabase(file), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
