import pino from 'pino';

/*
 * The process's one logger (docs/operations.md, Logs): JSON lines on stdout with an ISO time,
 * the level's name and the process id, so lines of two processes can be told apart. Domain
 * code logs through it too (payment steps, jobs); `LOG_LEVEL` sets the level at start-up.
 * Under `bun test` it is silent unless LOG_LEVEL says otherwise.
 */

export type Logger = pino.Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
// A LOG_LEVEL pino does not know would throw here, at import, before the configuration can
// refuse it in one line: the configuration says so, the logger starts at info meanwhile.
const given = process.env.LOG_LEVEL ?? '';
const defaultLevel = LEVELS.has(given) ? given : process.env.NODE_ENV === 'test' ? 'silent' : 'info';

/**
 * Lines are gathered and written 4 KiB at a time, and at least every 250 ms: a write per
 * request line took a third of the time of a cached page (docs/decisions.md). pino writes what
 * is left when the process exits; a kill -9 loses at most the last 250 ms.
 */
const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });

export const log: Logger = pino(
  {
    level: defaultLevel,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  destination,
);

/** Writes every gathered line now (before process.exit). */
export function flushLogs(): void {
  try {
    destination.flushSync();
  } catch {
    // Nothing written yet, or stdout closed: nothing more can be done with the lines.
  }
}

export function setLogLevel(level: LogLevel): void {
  log.level = level;
}

/** An error as log fields: its message and stack, never the whole object graph. */
export function errorFields(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { error: String(error) };
}
