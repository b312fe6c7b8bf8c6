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
    const stats = heapStats();
    // The most numerous kinds of live object: a leak shows as one kind that only grows.
    const kinds = Object.entries(stats.objectTypeCounts)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 12);
    writeFileSync(file, JSON.stringify({ rss: process.memoryUsage().rss, heap: stats.heapSize, objects: stats.objectCount, kinds }));
  }, 10_000).unref();
}
