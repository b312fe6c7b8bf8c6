/**
 * Preloaded into the soak's server (BUN_OPTIONS=--preload): on SIGUSR2 (the bench sends it once
 * a sample's wrk runs are done) a full collection, then the RSS, the JS heap and the most numerous
 * kinds of live object written to SOAK_RETAINED_FILE. RSS alone swings with when the collector
 * last ran; after a full collection it is the memory the store really keeps, so a leak shows as a
 * rising line here. On demand, not on a timer: a full collection and a heap census pause the
 * server (about a second each at the end of a 10-minute soak), and on a timer they landed inside
 * the throughput measurements.
 */
import { writeFileSync } from 'node:fs';
import { heapStats } from 'bun:jsc';

const file = process.env.SOAK_RETAINED_FILE;
if (file) {
  let seq = 0;
  process.on('SIGUSR2', () => {
    Bun.gc(true);
    const stats = heapStats();
    const kinds = Object.entries(stats.objectTypeCounts)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 12);
    writeFileSync(file, JSON.stringify({ seq: ++seq, rss: process.memoryUsage().rss, heap: stats.heapSize, objects: stats.objectCount, kinds }));
  });
}
