import { restoreBackup } from '../domain/operations/backups.ts';
import { replaceKeyPrefix } from '../domain/payments/keys.ts';

/**
 * `bun run restore FILE`: the backup put in place with a new gateway key prefix, because the keys
 * the store made after the backup was taken are known to the gateway and the restored ids would
 * make them again.
 */
export function restoreStore(file: string, dataDir: string) {
  return restoreBackup(file, dataDir, (copy) => replaceKeyPrefix(copy));
}
