/**
 * Waits until `check` holds, looking every 10 ms, for at most `timeoutMs`; fails naming what
 * it waited for. For islands' DOM after a click or a fetch (tests/islands).
 */
export async function until(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (check()) return;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
