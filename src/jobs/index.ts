import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys, influencerMetrics, influencers, sessions } from '../db/schema.ts';
import type { GameDeps } from '../domain/games/entry.ts';
import { runGameJobs } from '../domain/games/lifecycle.ts';
import { snapshotWindow } from '../domain/games/scoring.ts';
import { minuteOf, MINUTE_MS } from '../domain/metrics.ts';
import { reconcilePayments } from '../domain/payments/reconcile.ts';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../http/idempotency.ts';
import type { Job } from './scheduler.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Snapshots older than this are only kept when a settled game needs them (it stored its own). */
const SNAPSHOT_RETENTION_MS = 35 * DAY;

/** The jobs the process runs; each only decides when to call the domain. */
export function storeJobs(db: Db, games: GameDeps): Job[] {
  return [
    { name: 'games', run: async (now) => void (await runGameJobs(games, now)) },
    // After the games: what a tick (or a crash) left in between is finished at once.
    { name: 'payments', run: async (now) => void (await reconcilePayments(games, now)) },
    {
      name: 'metric-snapshots',
      run: (now) => {
        const people = db.select().from(influencers).all();
        snapshotWindow(db, games.metrics, people, minuteOf(now) - MINUTE_MS, minuteOf(now) + MINUTE_MS, now);
        db.delete(influencerMetrics).where(lt(influencerMetrics.minuteAt, now - SNAPSHOT_RETENTION_MS)).run();
      },
    },
    {
      name: 'expired-sessions',
      run: (now) => {
        db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
        db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_KEY_LIFETIME_MS)).run();
      },
    },
  ];
}
