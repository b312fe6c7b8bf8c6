import type { Database, Statement } from 'bun:sqlite';
import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Every SQL statement run on a connection, counted by what ran it (issue 35): the route pattern
 * of the request ('/product/:id'), 'job' for the game jobs, 'other' for the rest (start-up, the
 * CLI, a test's own setup). Fed at the connection (statement-cache.ts wraps each statement it
 * hands out, and the database's own run/exec), so Drizzle's queries, prepared ones and raw
 * `$client` calls are all counted. A statement costs one increment: the request resolves its
 * tally once, when its scope begins, and a statement finds it through the scope.
 */

/** Statements run for one label on one connection. */
export interface Tally {
  readonly owner: StatementCounts;
  readonly label: string;
  n: number;
}

/** One connection's counts, by label. */
export class StatementCounts {
  private readonly byLabel = new Map<string, Tally>();
  readonly other: Tally = this.tally('other');
  tracer: ((sql: string) => void) | undefined;

  tally(label: string): Tally {
    let one = this.byLabel.get(label);
    if (one === undefined) {
      one = { owner: this, label, n: 0 };
      this.byLabel.set(label, one);
    }
    return one;
  }

  /** Every label's count so far (for /metrics and tests). */
  snapshot(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [label, { n }] of this.byLabel) if (n > 0) counts.set(label, n);
    return counts;
  }
}

const scope = new AsyncLocalStorage<Tally>();
const countsOf = new WeakMap<Database, StatementCounts>();

/** The counts of a connection (empty for one that is not counted). */
export function statementCounts(sqlite: Database): StatementCounts {
  let counts = countsOf.get(sqlite);
  if (counts === undefined) {
    counts = new StatementCounts();
    countsOf.set(sqlite, counts);
  }
  return counts;
}

/** Runs `run` with the statements it runs (through every await) counted under `label`. */
export function countedAs<T>(sqlite: Database, label: string, run: () => T): T {
  return scope.run(statementCounts(sqlite).tally(label), run);
}

/** A counted run: the statement's SQL goes to the connection's tracer, when a test set one. */
type Count = (sql: string) => void;

function counter(counts: StatementCounts): Count {
  return (sql) => {
    const current = scope.getStore();
    // A scope for another connection (a test's second app) does not take this one's statements.
    (current !== undefined && current.owner === counts ? current : counts.other).n++;
    counts.tracer?.(sql);
  };
}

/**
 * Hands the SQL of every statement the connection runs, in order, to `onRun` until the returned
 * function is called (a test that compares what two requests ran; prepared statements are
 * prepared once, so watching `prepare` would miss them).
 */
export function traceStatements(sqlite: Database, onRun: (sql: string) => void): () => void {
  const counts = statementCounts(sqlite);
  counts.tracer = onRun;
  return () => {
    counts.tracer = undefined;
  };
}

const RUNS = ['get', 'all', 'iterate', 'values', 'raw', 'run'] as const;

/** Makes every run of `statement` count (its methods are its own, set when bun:sqlite made it). */
export function countRuns(statement: Statement, count: Count, sql: string): Statement {
  const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of RUNS) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    target[name] = function (this: unknown) {
      count(sql);
      // biome-ignore lint/complexity/noArguments: the statement takes its parameters as given, with no array made for them
      return original.apply(statement, arguments as unknown as unknown[]);
    };
  }
  return statement;
}

/**
 * Counts what the database runs without a statement of ours (`run`, `exec`), and returns the
 * increment statement-cache.ts applies to each statement it prepares.
 */
export function countStatements(sqlite: Database): Count {
  const count = counter(statementCounts(sqlite));
  for (const name of ['run', 'exec'] as const) {
    const original = sqlite[name].bind(sqlite) as (...args: unknown[]) => unknown;
    (sqlite as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      count(String(args[0]));
      return original(...args);
    };
  }
  return count;
}
