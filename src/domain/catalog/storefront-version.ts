import type { Db } from '../../db/client.ts';

/**
 * The storefront's change counter, bumped by database triggers on every write to products,
 * games, plays and influencers (migration 0004), whichever process or code path made it: a
 * sale, a price change, an entry, a game's start or end. A page cache filled at another value
 * is stale.
 */
export function storefrontVersion(db: Db): number {
  return db.$client.query<{ value: number }, []>("select value from change_counters where name = 'storefront'").get()?.value ?? 0;
}
