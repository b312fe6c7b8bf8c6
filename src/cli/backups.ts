import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { BackupError, backupDatabase, restoreBackup } from '../domain/backups.ts';

/*
 * `bun run backup -- FILE` / `csa backup FILE`: an online, consistent copy of the store in
 * DATA_DIR while it runs. `bun run restore -- FILE` / `csa restore FILE`: puts a backup into an
 * empty DATA_DIR. Both print one line of what they did, or why they refused.
 */

function dataDirOf(env: Record<string, string | undefined>): string {
  return resolve(env.DATA_DIR || './data');
}

/** Prints what `work` did (exit 0); a refusal (BackupError) is the operator's to read (exit 1); anything else is a bug and throws. */
function report(work: () => string): number {
  try {
    console.log(work());
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

export function backupCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  const file = args[0];
  if (!file) {
    console.error('Usage: backup FILE   (copies the store in DATA_DIR, default ./data, to FILE and its images to uploads/ beside it)');
    return 2;
  }
  const dataDir = dataDirOf(env);
  const database = join(dataDir, 'store.db');
  if (!existsSync(database)) {
    console.error(`No store database at ${database}. Set DATA_DIR to the store's data folder.`);
    return 2;
  }
  // The live file, opened as the server opens it (migrations are the server's business).
  const db = openDatabase(database);
  try {
    return report(() => {
      const made = backupDatabase(db, resolve(file), join(dataDir, 'uploads'));
      return `Backed up ${database} to ${made.file} (${made.bytes} bytes, integrity ok, ${made.uploadsCopied} new images, ${made.ms} ms)`;
    });
  } finally {
    db.$client.close();
  }
}

export function restoreCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  const file = args[0];
  if (!file) {
    console.error('Usage: restore FILE   (into an empty DATA_DIR, default ./data; images come from uploads/ beside FILE)');
    return 2;
  }
  return report(() => {
    const restored = restoreBackup(resolve(file), dataDirOf(env));
    return `Restored ${resolve(file)} to ${restored.database} (integrity ok, ${restored.uploadsCopied} images, new payment key prefix ${restored.keyPrefix}); start the store on this DATA_DIR.`;
  });
}

if (import.meta.main) {
  // `bun run backup -- FILE` may pass the `--` along.
  const [command, ...rest] = process.argv.slice(2).filter((arg) => arg !== '--');
  if (command === 'backup') process.exit(backupCommand(rest));
  if (command === 'restore') process.exit(restoreCommand(rest));
  console.error('Usage: bun src/cli/backups.ts backup FILE | restore FILE');
  process.exit(2);
}
