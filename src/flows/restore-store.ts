import type { Database } from 'bun:sqlite';
import { BACKUP_TAKEN_AT_SETTING, restoreBackup } from '../domain/operations/backups.ts';
import { replaceKeyPrefix } from '../domain/payments/keys.ts';

/*
 * `bun run restore FILE`: the backup put in place, renewed so that nothing the store handed out
 * after the backup was taken is handed out again (docs/fairness.md, "Secret seeds, backups and restores"):
 * - a new gateway key prefix: the keys made after the backup are known to the gateway, and the
 *   restored ids would make them again;
 * - order ids continue above any the store may have given since the backup (orderIdFloor);
 * - a marker that makes the first start re-commit every box and waiting game and void the games
 *   live at the backup's time (flows/recommit-seeds.ts), before it serves or runs a job. Start-up
 *   does it, not this command: it holds SEED_KEY, the gateway and the current schema.
 */

/** Set in the copy; the first start re-commits and deletes it (flows/recommit-seeds.ts). */
export const RECOMMIT_SETTING = 'restore_recommit_pending';

const DAY_MS = 86_400_000;
/** The least jump, whatever the backup's history says. */
export const MIN_ORDER_ID_GAP = 1_000;

export interface RestoreOptions {
  /** An order id the operator knows was handed out (from the gateway's dashboard, an e-mail): ids continue above it too. */
  ordersAbove?: number;
  now?: number;
}

function setting(copy: Database, key: string): string | undefined {
  return copy.query<{ value: string }, [string]>('select value from app_settings where key = ?').get(key)?.value;
}

/**
 * The first order id after the restore: above the backup's highest id (and sequence) by twice the
 * most orders the store took in a day in the backup's last 30 days, for every day from the backup
 * to now plus one, and at least MIN_ORDER_ID_GAP; and above `ordersAbove` when the operator knows
 * a higher id. The live database is usually gone when a restore is needed, so this is an upper
 * estimate of what it handed out, not a lookup.
 */
export function orderIdFloor(copy: Database, now: number, ordersAbove = 0): number {
  const { top, newest } = copy
    .query<{ top: number; newest: number }, []>('select coalesce(max(id), 0) as top, coalesce(max(order_date), 0) as newest from orders')
    .get()!;
  const sequence = copy.query<{ seq: number }, []>("select seq from sqlite_sequence where name = 'orders'").get()?.seq ?? 0;
  const takenAt = Number(setting(copy, BACKUP_TAKEN_AT_SETTING) ?? newest) || newest;
  const busiest =
    copy
      .query<{ peak: number }, [number]>(
        'select coalesce(max(n), 0) as peak from (select count(*) as n from orders where order_date >= ? group by order_date / 86400000)',
      )
      .get(takenAt - 30 * DAY_MS)?.peak ?? 0;
  const days = Math.ceil(Math.max(0, now - takenAt) / DAY_MS) + 1;
  const gap = Math.max(MIN_ORDER_ID_GAP, 2 * busiest * days);
  return Math.max(top, sequence, ordersAbove) + gap;
}

/** Order ids continue from `floor` + 1 (AUTOINCREMENT reads sqlite_sequence). */
function continueOrderIds(copy: Database, floor: number): void {
  const moved = copy.query("update sqlite_sequence set seq = ? where name = 'orders'").run(floor);
  if (moved.changes === 0) copy.query("insert into sqlite_sequence (name, seq) values ('orders', ?)").run(floor);
}

export function restoreStore(file: string, dataDir: string, options: RestoreOptions = {}) {
  const now = options.now ?? Date.now();
  let nextOrderId = 0;
  const restored = restoreBackup(file, dataDir, (copy) =>
    copy.transaction(() => {
      const floor = orderIdFloor(copy, now, options.ordersAbove);
      continueOrderIds(copy, floor);
      nextOrderId = floor + 1;
      copy
        .query(
          'insert into app_settings (key, value, updated_at) values (?, ?, ?) on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at',
        )
        .run(RECOMMIT_SETTING, String(now), now);
      return replaceKeyPrefix(copy, now);
    })(),
  );
  return { ...restored, nextOrderId };
}
