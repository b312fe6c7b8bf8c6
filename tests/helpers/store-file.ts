import { Database } from 'bun:sqlite';

/**
 * The running store's database file, opened by a test to arrange or read rows beside the server.
 * The server's jobs write at any moment (a tick, a demo auction, a reconciler pass), so the test
 * waits for their lock as the server's own connections do, instead of failing with SQLITE_BUSY.
 */
export function openStoreFile(file: string, options: { readonly?: boolean } = {}): Database {
  const db = new Database(file, options.readonly ? { readonly: true } : {});
  db.run('PRAGMA busy_timeout = 10000');
  return db;
}
