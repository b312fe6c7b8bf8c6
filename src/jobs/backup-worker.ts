import { BackupError, openForBackup, reasonOf, runScheduledBackup } from '../domain/operations/backups.ts';
import type { BackupTask, BackupReply } from './off-thread-backup.ts';

/*
 * The hourly backup's thread (src/jobs/off-thread-backup.ts). `VACUUM INTO` and the integrity
 * check are long synchronous SQLite calls: here they block only this thread. Its own connection
 * to the same file is a reader (WAL): the store keeps writing meanwhile. In the compiled binary
 * this file is an extra entrypoint (scripts/build-binary.ts).
 */

declare const self: { onmessage: ((event: MessageEvent<BackupTask>) => void) | null; postMessage(reply: BackupReply): void };

self.onmessage = (event) => {
  const task = event.data;
  let reply: BackupReply;
  try {
    const db = openForBackup(task.database);
    try {
      reply = { ok: true, result: runScheduledBackup(db, task) };
    } finally {
      db.close();
    }
  } catch (error) {
    reply = { ok: false, message: error instanceof BackupError ? error.message : reasonOf(error) };
  }
  self.postMessage(reply);
};
