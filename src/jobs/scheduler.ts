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
export function startScheduler(jobs: Job[], clock: Clock, intervalMs = 60_000): { stop(): Promise<void>; tick(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // Ticks run one after another: a tick asked for while one runs waits for it, then runs,
  // so whoever asks (the manual clock's route) sees every job that was due at that moment.
  let chain: Promise<void> = Promise.resolve();

  async function runAll(): Promise<void> {
    for (const job of jobs) {
      try {
        await job.run(clock.now());
      } catch (error) {
        console.error(`job ${job.name} failed:`, error);
      }
    }
  }

  function tick(): Promise<void> {
    chain = chain.then(runAll);
    return chain;
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
    /** No more ticks; resolves once the tick that may be running has finished. */
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      return chain;
    },
    tick,
  };
}
