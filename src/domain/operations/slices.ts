/*
 * Long jobs on the serving thread go in slices (issue 26 row 5): bun:sqlite is synchronous, so a
 * job that starts four hundred games in one go holds every request until it is done. Between
 * slices the job gives the event loop a turn (setImmediate: after the I/O that is waiting), so
 * no request waits behind more than one slice.
 */

/** How long a slice may run before it gives way; a tenth of the 50 ms a request may wait. */
export const SLICE_MS = 5;

/** Every yield so far, for the tests that check a long job really is sliced. */
export const sliceCounter = { yields: 0 };

export function yieldToRequests(): Promise<void> {
  sliceCounter.yields++;
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A step function for a loop: call `await step()` after each item; it yields once `maxItems`
 * items or `budgetMs` have passed since the last yield, else returns at once.
 */
export function slicer(maxItems: number, budgetMs = SLICE_MS): () => Promise<void> {
  let items = 0;
  let since = performance.now();
  return async () => {
    items++;
    if (items < maxItems && performance.now() - since < budgetMs) return;
    await yieldToRequests();
    items = 0;
    since = performance.now();
  };
}
