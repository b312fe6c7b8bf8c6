/*
 * How many runs a fast-check property makes. The fast suite runs each property at the count
 * that still finds the bugs it was written for (docs/decisions.md, issue 35: checked by putting
 * those bugs back); PROPERTY_RUNS_FACTOR=4 (a nightly, a hunt for a rare interleaving) runs
 * every property that many times as long.
 */
const factor = Number(process.env.PROPERTY_RUNS_FACTOR ?? '1');
if (!Number.isFinite(factor) || factor <= 0) throw new Error(`PROPERTY_RUNS_FACTOR must be a positive number, not "${process.env.PROPERTY_RUNS_FACTOR}"`);

/** The fast suite's run count `runs`, times PROPERTY_RUNS_FACTOR. */
export function propertyRuns(runs: number): number {
  return Math.max(1, Math.round(runs * factor));
}
