import pino from 'pino';

/*
 * The process's one logger (docs/operations.md, Logs): JSON lines on stdout with an ISO time,
 * the level's name and the process id, so lines of two processes can be told apart. Domain
 * code logs through it too (payment steps, jobs); `LOG_LEVEL` sets the level at start-up.
 * Under `bun test` it is silent unless LOG_LEVEL says otherwise.
 */

export type Logger = pino.Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

const defaultLevel = process.env.LOG_LEVEL || (process.env.NODE_ENV === 'test' ? 'silent' : 'info');

export const log: Logger = pino({
  level: defaultLevel,
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

export function setLogLevel(level: LogLevel): void {
  log.level = level;
}

/** An error as log fields: its message and stack, never the whole object graph. */
export function errorFields(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { error: String(error) };
}
