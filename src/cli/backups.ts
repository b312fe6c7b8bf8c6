import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BackupError, backupDatabase, openForBackup, reasonOf } from '../domain/operations/backups.ts';
import { restoreStore } from '../flows/restore-store.ts';

/*
 * `bun run backup -- FILE` / `csa backup FILE`: an online, consistent copy of the store in
 * DATA_DIR while it runs. `bun run restore -- FILE` / `csa restore FILE`: puts a backup into an
 * empty DATA_DIR. Both print one line of what they did, or why they refused.
 */

function dataDirOf(env: Record<string, string | undefined>): string {
  return resolve(env.DATA_DIR || './data');
}

/**
 * Prints what `work` did (exit 0), or one line of why it failed (exit 1): a refusal, a corrupt
 * file, a full disk are the operator's to read, never a stack trace. The domain has already
 * removed whatever it had half written.
 */
function report(what: string, work: () => string): number {
  try {
    console.log(work());
    return 0;
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : `${what} failed: ${reasonOf(error)}`);
    return 1;
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
  return report('Backup', () => {
    // The live file, read only by this copy (migrations and pragmas are the server's business).
    const db = openForBackup(database);
    try {
      const made = backupDatabase(db, resolve(file), join(dataDir, 'uploads'));
      return `Backed up ${database} to ${made.file} (${made.bytes} bytes, integrity ok, ${made.uploadsCopied} new images, ${made.ms} ms)`;
    } finally {
      db.close();
    }
  });
}

const RESTORE_USAGE =
  'Usage: restore FILE [--orders-above N]   (into an empty DATA_DIR, default ./data; images come from uploads/ beside FILE; order numbers continue above N too, e.g. the last one your e-mails or Square show)';

export function restoreCommand(args: string[], env: Record<string, string | undefined> = process.env): number {
  const at = args.indexOf('--orders-above');
  const above = at >= 0 ? args[at + 1] : undefined;
  const file = args.find((arg, index) => !arg.startsWith('--') && (at < 0 || index !== at + 1));
  if (!file || (at >= 0 && !/^\d{1,15}$/.test(above ?? ''))) {
    console.error(RESTORE_USAGE);
    return 2;
  }
  return report('Restore', () => {
    const restored = restoreStore(resolve(file), dataDirOf(env), { ordersAbove: above === undefined ? undefined : Number(above) });
    return `Restored ${resolve(file)} to ${restored.database} (integrity ok, ${restored.uploadsCopied} images, new payment key prefix ${restored.keyPrefix}, order numbers continue from ${restored.nextOrderId}); start the store on this DATA_DIR: its first start commits new seeds for every mystery box and waiting game and voids the games that were live at the backup's time.`;
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
