import { fstatSync, write, writeSync } from 'node:fs';
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

/** Lines are written 4 KiB at a time, and at least every 250 ms (docs/decisions.md). */
const BATCH_BYTES = 4096;
const FLUSH_EVERY_MS = 250;
/** What waits for a stdout nobody reads; past it lines are dropped and counted, memory stays flat. */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/**
 * stdout that can never stop the process. pino's own destination ends with a synchronous
 * flush, and a synchronous write to a pipe whose reader stopped reading sleeps in the kernel
 * for ever, signals and deadlines included (a stopped store stayed up for an hour). Here every
 * write is asynchronous (one at a time, off the event loop), a stuck pipe only makes lines
 * wait up to MAX_PENDING_BYTES, a closed one (EPIPE) drops them, and `flushLogs` is bounded.
 */
class StdoutLines {
  private pending: string[] = [];
  private pendingBytes = 0;
  private writing = false;
  private closed = false;
  private dropped = 0;
  private drained: (() => void)[] = [];

  constructor(private readonly fd: number) {
    setInterval(() => this.writeNext(), FLUSH_EVERY_MS).unref();
  }

  write(line: string): void {
    if (this.closed) return;
    if (this.pendingBytes + line.length > MAX_PENDING_BYTES) {
      this.dropped++;
      return;
    }
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= BATCH_BYTES) this.writeNext();
  }

  private writeNext(): void {
    if (this.writing || this.closed) return;
    if (this.dropped > 0) {
      const note = `${JSON.stringify({ level: 'warn', time: new Date().toISOString(), pid: process.pid, event: 'log_lines_dropped', dropped: this.dropped, msg: `${this.dropped} log lines dropped: stdout was not being read` })}\n`;
      this.dropped = 0;
      this.pending.push(note);
      this.pendingBytes += note.length;
    }
    if (this.pending.length === 0) {
      for (const resolve of this.drained.splice(0)) resolve();
      return;
    }
    const chunk = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = true;
    this.writeChunk(chunk);
  }

  private writeChunk(chunk: Buffer): void {
    write(this.fd, chunk, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => this.writeChunk(chunk), 10).unref();
          return;
        }
        // EPIPE (the reader went away) or worse: nothing more can be written, so nothing waits.
        this.closed = true;
        this.pending = [];
        this.pendingBytes = 0;
        for (const resolve of this.drained.splice(0)) resolve();
        return;
      }
      if (written < chunk.length) return this.writeChunk(chunk.subarray(written));
      this.writing = false;
      this.writeNext();
    });
  }

  /** Resolves once every gathered line is written, or after `withinMs`, whichever is first. */
  flush(withinMs: number): Promise<void> {
    if (this.closed || (!this.writing && this.pending.length === 0 && this.dropped === 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, withinMs);
      this.drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.writeNext();
    });
  }

  /**
   * At exit (a crash, a process.exit nobody awaited): a regular file takes what is left at
   * once; a pipe or socket might not take it ever, so there the last lines are given up.
   */
  writeLeftAtExit(): void {
    if (this.closed || this.writing || this.pending.length === 0) return;
    try {
      if (fstatSync(this.fd).isFile()) writeSync(this.fd, this.pending.join(''));
    } catch {
      // Nothing more can be done with the lines.
    }
  }
}

const stdoutLines = new StdoutLines(1);
process.on('exit', () => stdoutLines.writeLeftAtExit());

export const log: Logger = pino(
  {
    level: defaultLevel,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  { write: (line: string) => stdoutLines.write(line) },
);

/** Writes every gathered line, waiting at most `withinMs` (a stuck stdout never holds an exit). */
export function flushLogs(withinMs = 1000): Promise<void> {
  return stdoutLines.flush(withinMs);
}

export function setLogLevel(level: LogLevel): void {
  log.level = level;
}

/** An error as log fields: its message and stack, never the whole object graph. */
export function errorFields(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { error: String(error) };
}
