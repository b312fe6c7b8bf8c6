import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** /healthz: the database answers a query; throws with the reason when it does not. */
export function checkDatabase(db: Db): void {
  db.get(sql`select 1`);
}
