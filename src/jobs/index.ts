import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { GameDeps } from '../domain/games/entry.ts';
import { runGameJobs } from '../domain/games/lifecycle.ts';
import { PRUNE_BATCH, pruneSnapshots } from '../domain/games/retention.ts';
import { reconcilePayments } from '../domain/payments/reconcile.ts';
import { pruneIdempotencyKeys } from '../domain/idempotency.ts';
import { pruneRateLimitEvents } from '../domain/rate-limit.ts';
import { pruneExpiredSessions } from '../domain/sessions.ts';
import type { Job } from './scheduler.ts';

const HOUR = 60 * 60 * 1000;

/** The jobs the lease holder runs; each only decides when to call the domain. */
export function storeJobs(db: Db, games: GameDeps, config?: Pick<Config, 'retention'>): Job[] {
  let prunedAt = 0;
  const retention = config?.retention;
  return [
    // Before the games: a feed game can only settle once its minutes are in.
    { name: 'metrics', run: (now) => games.metrics.collect(db, now) },
    { name: 'games', run: (now) => runGameJobs(games, now) },
    // After the games: what a tick (or a crash) left in between is finished at once.
    { name: 'payments', run: async (now) => void (await reconcilePayments(games, now)) },
    {
      name: 'retention',
      run: (now) => {
        pruneExpiredSessions(db, now);
        pruneIdempotencyKeys(db, now);
        if (retention) pruneRateLimitEvents(db, now - retention.rateLimitHours * HOUR);
        // Old snapshots go once an hour, in ranges no recent game needs; a backlog goes a batch a minute.
        if (now - prunedAt >= HOUR) {
          const removed = pruneSnapshots(db, now);
          if (removed < PRUNE_BATCH) prunedAt = now;
        }
      },
    },
  ];
}
