/**
 * Waits until `check` holds, for at most `timeoutMs`; fails naming what it waited for. For
 * islands' DOM after a click or a fetch (tests/islands), and e2e waits on files and servers.
 * It looks every 2 ms for the first 100 ms, then every 10 ms: most island waits are one render
 * or one mocked fetch (at 10 ms a look, 240 of them left a worker idle for seconds), while an
 * e2e wait of a minute on a directory need not read it 30,000 times.
 */
export async function until(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, Date.now() - started < 100 ? 2 : 10));
  }
  if (check()) return;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
