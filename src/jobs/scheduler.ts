import type { Clock } from '../domain/clock.ts';

export interface Job {
  name: string;
  /** Must be idempotent: it runs at start-up to catch up, then on every tick. */
  run(now: number): void | Promise<void>;
}

/**
 * Runs every job once at start, then each minute on the minute (Bun's timers). A job that
 * throws is logged and retried on the next tick; ticks never overlap.
 */
export function startScheduler(jobs: Job[], clock: Clock, intervalMs = 60_000): { stop(): void; tick(): Promise<void> } {
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function tick(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (const job of jobs) {
        try {
          await job.run(clock.now());
        } catch (error) {
          console.error(`job ${job.name} failed:`, error);
        }
      }
    } finally {
      running = false;
    }
  }

  function scheduleNext(): void {
    if (stopped) return;
    const wait = intervalMs - (Date.now() % intervalMs) + 5;
    timer = setTimeout(async () => {
      await tick();
      scheduleNext();
    }, wait);
  }

  void tick().then(scheduleNext);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    tick,
  };
}
