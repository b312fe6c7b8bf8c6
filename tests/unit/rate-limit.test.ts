import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openMigratedDatabase } from '../../src/db/client.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { pruneRateLimitEvents, RateLimiter } from '../../src/domain/operations/rate-limit.ts';

describe('RateLimiter in the database', () => {
  test('counts within a sliding window', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(await openMigratedDatabase(), 'test', 3, 1000, clock);
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter('k')).toBe(0);
      limiter.record('k');
      clock.advance(100);
    }
    expect(limiter.retryAfter('k')).toBe(700);
    expect(limiter.retryAfter('other')).toBe(0);
    clock.advance(701);
    expect(limiter.retryAfter('k')).toBe(0);
  });

  test('attempt counts only what it lets through, and buckets never mix', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock(0);
    const logins = new RateLimiter(db, 'login', 2, 1000, clock);
    const forms = new RateLimiter(db, 'form', 2, 1000, clock);
    expect([logins.attempt('ip'), logins.attempt('ip'), logins.attempt('ip') > 0]).toEqual([0, 0, true]);
    expect(forms.attempt('ip')).toBe(0);
    logins.forgetLatest('ip');
    expect(logins.attempt('ip')).toBe(0);
    logins.reset('ip');
    expect(logins.retryAfter('ip')).toBe(0);
  });

  test('does nothing when disabled', async () => {
    const limiter = new RateLimiter(await openMigratedDatabase(), 'test', 1, 1000, new ManualClock(0), false);
    limiter.record('k');
    limiter.record('k');
    expect(limiter.retryAfter('k')).toBe(0);
  });

  test('two connections on one file share one count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csa-limit-'));
    try {
      const first = await openMigratedDatabase(join(dir, 'store.db'));
      const second = openDatabase(join(dir, 'store.db'));
      const clock = new ManualClock(5_000);
      const a = new RateLimiter(first, 'login', 10, 60_000, clock);
      const b = new RateLimiter(second, 'login', 10, 60_000, clock);
      const answers = Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).attempt('shared'));
      expect(answers.filter((wait) => wait === 0)).toHaveLength(10);
      expect(answers.slice(10).every((wait) => wait > 0)).toBe(true);
      clock.advance(60_001);
      expect(pruneRateLimitEvents(second, clock.now() - 60_000)).toBe(10);
      expect(a.retryAfter('shared')).toBe(0);
      first.$client.close();
      second.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
