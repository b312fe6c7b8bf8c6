import type { Clock } from './clock.ts';

/**
 * Counts events per key in a sliding window, in memory. One process serves the store
 * (DESIGN section 1), so memory is the right place; a restart forgets, which is acceptable.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
    private readonly enabled = true,
  ) {}

  /** Milliseconds until the key may act again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    if (!this.enabled) return 0;
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return recent[0]! + this.windowMs - this.clock.now();
  }

  record(key: string): void {
    if (!this.enabled) return;
    const recent = this.recent(key);
    recent.push(this.clock.now());
    this.hits.set(key, recent);
    if (this.hits.size > 50_000) this.prune();
  }

  /** Takes back the newest event of the key (an attempt counted in advance that turned out fine). */
  forgetLatest(key: string): void {
    const times = this.hits.get(key);
    if (!times) return;
    times.pop();
    if (times.length === 0) this.hits.delete(key);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.clock.now() - this.windowMs;
    return (this.hits.get(key) ?? []).filter((at) => at > since);
  }

  private prune(): void {
    const since = this.clock.now() - this.windowMs;
    for (const [key, times] of this.hits) {
      if (times.every((at) => at <= since)) this.hits.delete(key);
    }
  }
}

export function minutesText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
