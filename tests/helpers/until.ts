/**
 * Waits until `check` holds, looking every 2 ms, for at most `timeoutMs`; fails naming what
 * it waited for. For islands' DOM after a click or a fetch (tests/islands). Most waits are one
 * render or one mocked fetch: at 10 ms a look, the 240 of them were 3 s of an idle worker.
 */
export async function until(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  if (check()) return;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
