import { Worker } from 'node:worker_threads';
import type { Config } from './config.ts';
import type { Lifecycle } from './http/lifecycle.ts';
import { flushLogs, log } from './log.ts';

/**
 * The same signal again within this long is the same stop: a wrapper (`bun run`, `npm exec`)
 * passes on the signal its process group also delivered, so one Ctrl-C or one `systemctl stop`
 * arrives two or three times within milliseconds. Only a later one means "exit now".
 */
export const SAME_SIGNAL_WINDOW_MS = 3000;

/**
 * What a signal means: the first starts the stop; the same signal within the window is that
 * stop again (passed on by a wrapper); anything later or different means exit now.
 */
export function signalJudge(windowMs = SAME_SIGNAL_WINDOW_MS) {
  let first: { signal: string; at: number } | null = null;
  return (signal: string, now: number): { kind: 'stop' } | { kind: 'same stop' } | { kind: 'exit now'; afterMs: number } => {
    if (!first) {
      first = { signal, at: now };
      return { kind: 'stop' };
    }
    if (signal === first.signal && now - first.at < windowMs) return { kind: 'same stop' };
    return { kind: 'exit now', afterMs: now - first.at };
  };
}

/** Counts requests in flight, so a shutdown can let them finish. */
export function requestTracker() {
  let inFlight = 0;
  let onIdle: (() => void) | null = null;
  return {
    started(): void {
      inFlight++;
    },
    finished(): void {
      if (--inFlight === 0) onIdle?.();
    },
    inFlight: () => inFlight,
    idle: (): Promise<void> => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onIdle = resolve))),
  };
}
export type RequestTracker = ReturnType<typeof requestTracker>;

/**
 * An answer sent while draining closes its connection once sent: a proxy's kept-alive
 * connection ends politely after an answer, never under a request it is sending.
 */
export function closingConnection(response: Response): Response {
  try {
    response.headers.set('Connection', 'close');
    return response;
  } catch {
    // Immutable headers (a fetched response passed through): copy them.
    const copy = new Response(response.body, response);
    copy.headers.set('Connection', 'close');
    return copy;
  }
}

/**
 * The last resort: a worker thread that kills the process after `ms`, for when the main thread
 * itself is stuck (a synchronous write, a lock) and no timer or signal handler of it can run.
 */
function killAfter(ms: number): void {
  const code =
    "const { workerData } = require('node:worker_threads'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms); process.kill(workerData.pid, 'SIGKILL');";
  try {
    new Worker(code, { eval: true, workerData: { ms, pid: process.pid } }).unref();
  } catch (error) {
    log.warn({ event: 'shutdown', error: String(error) }, 'shutdown: no watchdog thread; the exit relies on the main thread');
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Graceful shutdown (SIGTERM from systemd, Docker or a deploy; SIGINT from a terminal):
 *  1. /readyz answers 503 at once, and for SHUTDOWN_DRAIN_MS (SIGTERM only: nobody balances a
 *     terminal) the process keeps serving while the balancer notices; every answer says
 *     `Connection: close`, so kept-alive connections end after an answer, not under a request;
 *  2. the listener closes, requests in flight and a running job tick finish (a charge waiting
 *     on the gateway completes and is recorded), the jobs lease is given up;
 *  3. the database closes, the logs are written (bounded: a stdout nobody reads cannot hold
 *     the exit), exit 0.
 * Whatever happens, the process is gone SHUTDOWN_GRACE_MS after the first signal (exit 1 when
 * work was cut; the reconciler finishes it). A different or later second signal exits at once.
 */
export function stopOnSignals(parts: {
  config: Pick<Config, 'shutdownGraceMs' | 'shutdownDrainMs'>;
  lifecycle: Lifecycle;
  server: { stop(): unknown };
  requests: RequestTracker;
  stopJobs: () => Promise<unknown>;
  closeDatabase: () => void;
}): void {
  const shutdownLog = log.child({ event: 'shutdown' });

  const exitNow = (code: number, flushMs = 200) => void flushLogs(flushMs).finally(() => process.exit(code));

  const shutdown = async (signal: string, graceMs: number) => {
    const startedAt = Date.now();
    // The steps end a little before the deadline, so their logs have time to be written; then
    // the hard deadline exits whatever still runs (a stuck job, a database lock, a full stdout);
    // at SHUTDOWN_GRACE_MS a thread of its own kills the process even if this one is stuck.
    const margin = Math.min(1000, Math.floor(graceMs / 5));
    const workMs = graceMs - margin;
    setTimeout(
      () => {
        shutdownLog.warn(`shutdown: ${graceMs - margin / 2} ms passed, exiting`);
        exitNow(1, margin / 4);
      },
      graceMs - margin / 2,
    );
    killAfter(graceMs);
    const deadline = new Promise<'deadline'>((resolve) => setTimeout(() => resolve('deadline'), workMs));
    const left = () => Math.max(0, workMs - (Date.now() - startedAt));

    parts.lifecycle.startDraining();
    const drainMs = signal === 'SIGTERM' ? Math.min(parts.config.shutdownDrainMs, workMs) : 0;
    shutdownLog.info(`shutdown: ${signal} received, /readyz now answers 503; serving ${drainMs} ms more with Connection: close (up to ${graceMs} ms in all)`);
    if (drainMs > 0) await Bun.sleep(drainMs);

    void parts.server.stop();
    shutdownLog.info(`shutdown: no longer accepting connections, ${plural(parts.requests.inFlight(), 'request')} in flight`);
    const requests = await Promise.race([parts.requests.idle().then(() => 'done' as const), deadline]);
    shutdownLog.info(
      requests === 'done' ? 'shutdown: requests drained' : `shutdown: deadline passed with ${plural(parts.requests.inFlight(), 'request')} in flight`,
    );
    const jobs = await Promise.race([parts.stopJobs().then(() => 'done' as const), deadline]);
    shutdownLog.info(jobs === 'done' ? 'shutdown: jobs finished' : 'shutdown: deadline passed while a job was running');
    parts.closeDatabase();
    shutdownLog.info('shutdown: database closed');
    // A stuck stdout gets a few seconds, not the rest of the grace: waiting longer rarely helps.
    await flushLogs(Math.min(3000, Math.max(50, left())));
    process.exit(requests === 'done' && jobs === 'done' ? 0 : 1);
  };

  const judge = signalJudge();
  const onSignal = (signal: string) => {
    const verdict = judge(signal, Date.now());
    if (verdict.kind === 'stop') return void shutdown(signal, parts.config.shutdownGraceMs);
    if (verdict.kind === 'same stop') {
      shutdownLog.info(`shutdown: ${signal} again within ${SAME_SIGNAL_WINDOW_MS} ms (a wrapper passing it on): the same stop`);
      return;
    }
    shutdownLog.warn(`shutdown: ${signal} after ${verdict.afterMs} ms of shutting down, exiting now`);
    exitNow(1);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}
