import { type Db, openDatabaseImage, openMigratedDatabase } from '../../src/db/client.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { ManualClock } from '../../src/domain/clock.ts';

/*
 * The seed catalogue is about a hundred inserts (10 ms of a core); nearly a thousand tests start
 * from it. So each worker seeds once per seeding time and every store after that is a copy of
 * the result (under a millisecond), the same rows seedIfEmpty would write at that time.
 */
const images = new Map<number, Promise<Uint8Array>>();

/** The bytes of a migrated database seeded by seedIfEmpty at `at` (a serialize() image). */
export function seededImage(at: number): Promise<Uint8Array> {
  let image = images.get(at);
  if (!image) {
    image = (async () => {
      const db = await openMigratedDatabase();
      seedIfEmpty(db, new ManualClock(at));
      const bytes = db.$client.serialize();
      db.$client.close();
      return bytes;
    })();
    images.set(at, image);
  }
  return image;
}

/** A fresh in-memory database holding the seed catalogue as seedIfEmpty writes it at `at`. */
export async function openSeededDatabase(at: number): Promise<Db> {
  return openDatabaseImage(await seededImage(at));
}
