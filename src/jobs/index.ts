import type { Config } from '../config.ts';
// What each kind of payment row means, registered once with the money engine before anything runs.
import '../flows/payment-purposes.ts';
import type { Db } from '../db/client.ts';
import type { GameDeps } from '../domain/games/entry.ts';
import { runGameJobs } from '../domain/games/lifecycle.ts';
import { closeDueAuctions } from '../domain/auctions/close.ts';
import { runTeamJobs } from '../domain/promotions/teams-expiry.ts';
import { announceLiveScores, pruneLiveEvents } from '../domain/operations/live-events.ts';
import { expireUnclaimedPrizes } from '../domain/games/prizes.ts';
import { PRUNE_BATCH, pruneSnapshots } from '../domain/games/retention.ts';
import { reconcilePayments } from '../domain/payments/reconcile.ts';
import { pruneIdempotencyKeys } from '../domain/payments/idempotency.ts';
import { pruneProcessLeases } from '../domain/operations/process-lease.ts';
import { pruneStoreRows } from '../domain/operations/row-retention.ts';
import { pruneExpiredSessions } from '../domain/accounts/sessions.ts';
import { yieldToRequests } from '../domain/operations/slices.ts';
import { isBackupDue } from '../domain/operations/backups.ts';
import { scheduledBackup, stopRunningBackups } from './off-thread-backup.ts';
import type { Job } from './scheduler.ts';

const HOUR = 60 * 60 * 1000;

/** The jobs the lease holder runs; each only decides when to call the domain. */
export function storeJobs(db: Db, games: GameDeps, config?: Pick<Config, 'retention' | 'backup'> & { uploadsDir: string }): Job[] {
  let prunedAt = 0;
  const jobs: Job[] = [
    // Before the games: a feed game can only settle once its minutes are in.
    { name: 'metrics', run: (now) => games.metrics.collect(db, now) },
    { name: 'games', run: (now) => runGameJobs(games, now) },
    // Live games' scores moved this minute: their pages' streams send the new scores.
    { name: 'live', run: () => ({ scoreTicks: announceLiveScores(db), pruned: pruneLiveEvents(db) }) },
    // Unclaimed prizes: a reminder a day before, then back to stock after 7 days.
    { name: 'prizes', run: (now) => expireUnclaimedPrizes(games, now) },
    // Auctions past their end are closed and their winners charged (exactly once: close.ts).
    { name: 'auctions', run: (now) => closeDueAuctions(games, now) },
    // Team buys: open teams past their 24 hours expire (hold voided, unit back); full ones left capturing are finished.
    { name: 'teams', run: (now) => runTeamJobs(games, now) },
    // After the games and auctions: what a tick (or a crash) left in between is finished at once.
    { name: 'payments', run: async (now) => void (await reconcilePayments(games, now)) },
    {
      name: 'retention',
      run: async (now) => {
        pruneIdempotencyKeys(db, now);
        pruneProcessLeases(db);
        // Old snapshots go once an hour, in ranges no recent game needs; a backlog goes a batch a
        // minute, in four transactions with a turn for the requests between them.
        let snapshots = 0;
        if (now - prunedAt >= HOUR) {
          for (let slice = PRUNE_BATCH / 4; snapshots < PRUNE_BATCH; ) {
            if (snapshots > 0) await yieldToRequests();
            const removed = pruneSnapshots(db, now, slice);
            snapshots += removed;
            if (removed < slice) break;
          }
          if (snapshots < PRUNE_BATCH) prunedAt = now;
        }
        if (config) return { snapshots, ...(await pruneStoreRows(db, now, config.retention)) };
        pruneExpiredSessions(db, now);
        return { snapshots };
      },
    },
  ];
  if (config?.backup.dir) {
    const { dir, everyMs, keep } = { ...config.backup, dir: config.backup.dir };
    const uploadsDir = config.uploadsDir;
    let stopping = false;
    // Wall-clock time: backups follow the real day, whatever the game clock says. The copy and
    // its integrity check run on a worker thread: requests never wait for them.
    jobs.push({
      name: 'backup',
      run: () => (!stopping && isBackupDue(dir, everyMs, Date.now()) ? scheduledBackup(db, { dir, keep, uploadsDir, now: Date.now() }) : undefined),
      // Shutdown does not wait seconds for a copy: the next start takes it.
      stop: () => {
        stopping = true;
        stopRunningBackups();
      },
    });
  }
  return jobs;
}
