/**
 * Preloaded into the soak's server (BUN_OPTIONS=--preload): every 10 s a full collection, then the
 * RSS and JS heap written to SOAK_RETAINED_FILE. RSS alone swings with when the collector last ran
 * (garbage and freed native buffers are held until then); after a full collection it is the memory
 * the store really keeps, so a leak shows as a rising line here.
 */
import { writeFileSync } from 'node:fs';
import { heapStats } from 'bun:jsc';

const file = process.env.SOAK_RETAINED_FILE;
if (file) {
  setInterval(() => {
    Bun.gc(true);
    writeFileSync(file, JSON.stringify({ rss: process.memoryUsage().rss, heap: heapStats().heapSize }));
  }, 10_000).unref();
}
