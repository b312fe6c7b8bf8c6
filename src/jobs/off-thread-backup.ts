import { join } from 'node:path';
import { backupName, removeWithSidecars, runScheduledBackup } from '../domain/operations/backups.ts';
import type { Db } from '../db/client.ts';

/*
 * The hourly backup runs on a worker thread with its own connection (issue 26 row 5): at a
 * year of data `VACUUM INTO` plus the integrity check take seconds, which on the serving
 * thread every request would wait for. A worker is made per backup and ends with it.
 */

export interface BackupTask {
  database: string;
  dir: string;
  keep: number;
  uploadsDir: string;
  now: number;
}
export type BackupReply = { ok: true; result: ReturnType<typeof runScheduledBackup> } | { ok: false; message: string };

/**
 * Where the worker's module is: beside this file from source; in the compiled binary, by its
 * path from the bundle's root (the project root: the common folder of the entrypoints).
 */
function workerSpecifier(): string {
  if (import.meta.url.includes('/$bunfs/') || import.meta.url.includes('/~BUN/')) return './src/jobs/backup-worker.ts';
  return new URL('./backup-worker.ts', import.meta.url).href;
}

/** The backups running now, each with the way to stop it. */
const running = new Set<() => void>();

/**
 * Stops the backups that run (shutdown): a year-sized copy takes seconds, and the next start
 * takes the backup again since none was made. What the copy had written goes with it.
 */
export function stopRunningBackups(): void {
  for (const stop of [...running]) stop();
}

/** Takes one rotating backup on a worker thread; resolves with what it made, rejects with one line of why not. */
export function backupInWorker(task: BackupTask): Promise<ReturnType<typeof runScheduledBackup> & { thread: 'worker' }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerSpecifier());
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      running.delete(stop);
      worker.terminate();
      outcome();
    };
    // The thread ends once its SQLite call returns: what the copy had written goes then.
    const stop = () =>
      finish(() => {
        worker.addEventListener('close', () => removeWithSidecars(`${join(task.dir, backupName(task.now))}.partial`));
        reject(new Error('stopped: the store is shutting down; the next start takes the backup'));
      });
    running.add(stop);
    worker.onmessage = (event: MessageEvent<BackupReply>) => {
      const reply = event.data;
      finish(() => (reply.ok ? resolve({ ...reply.result, thread: 'worker' }) : reject(new Error(reply.message))));
    };
    worker.onerror = (event) => finish(() => reject(new Error(`the backup worker failed: ${event.message}`)));
    worker.addEventListener('close', () => finish(() => reject(new Error('the backup worker ended without an answer'))));
    worker.postMessage(task);
  });
}

/** The scheduled backup of the store's file off the serving thread; an in-memory database (tests) can only be copied here. */
export function scheduledBackup(db: Db, options: Omit<BackupTask, 'database'>) {
  const database = db.$client.filename;
  if (!database || database === ':memory:') return { ...runScheduledBackup(db, options), thread: 'main' as const };
  return backupInWorker({ database, ...options });
}
