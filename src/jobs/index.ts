import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import type { Job } from './scheduler.ts';

/** The jobs the process runs. Later issues add the game start, settlement and expiry jobs. */
export function storeJobs(db: Db): Job[] {
  return [
    {
      name: 'expired-sessions',
      run: (now) => {
        db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
      },
    },
  ];
}
