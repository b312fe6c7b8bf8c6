import { describe, expect, spyOn, test } from 'bun:test';
import { STORAGE_FULL_MESSAGE, storageWritable } from '../../src/domain/operations/disk-state.ts';
import { holdLease } from '../../src/domain/operations/job-lease.ts';
import { startScheduler } from '../../src/jobs/scheduler.ts';
import { log } from '../../src/log.ts';
import { testApp } from '../helpers/app.ts';

/*
 * Issue 26 row 9: a full disk. SQLite's max_page_count stands in for it: once the file may not
 * grow, every write that needs a page fails with SQLITE_FULL, as on a full volume.
 */

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** Lets the file grow no more, and fills the room left in it, down to the last small row of each table a sign-up writes. */
function fillDisk(ctx: Ctx): void {
  const sql = ctx.db.$client;
  const pages = (sql.query('PRAGMA page_count').get() as { page_count: number }).page_count;
  sql.exec(`PRAGMA max_page_count = ${pages}`);
  const fillers = [
    sql.query("insert into app_settings (key, value, updated_at) values ('filler-' || ?, '', 0)"),
    sql.query("insert into users (username, password_hash, created_at) values ('filler-' || ?, 'x', 0)"),
  ];
  let n = 0;
  for (const insert of fillers) {
    try {
      for (;;) insert.run(n++);
    } catch (error) {
      expect((error as { code?: string }).code).toBe('SQLITE_FULL');
    }
  }
}

function freeDisk(ctx: Ctx): void {
  ctx.db.$client.exec('PRAGMA max_page_count = 1073741823');
}

const register = (ctx: Ctx, username: string) => ctx.client().post('/api/register', { json: { username, password: 'secret-pass' } });

describe('a full disk', () => {
  test('writes answer a clear 503, /readyz fails, it is logged once; with room again all is back', async () => {
    const ctx = await testApp();
    expect(holdLease(ctx.db, 'test', Date.now(), 60_000)).toBe(true);
    expect((await ctx.client().get('/readyz')).status).toBe(200);
    const errors = spyOn(log, 'error');
    try {
      fillDisk(ctx);
      for (const name of ['full-1', 'full-2', 'full-3']) {
        const response = await register(ctx, name);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('30');
        expect(await response.json()).toEqual({ message: STORAGE_FULL_MESSAGE });
      }
      // Reads still work, so liveness stays; readiness says the process cannot take writes.
      const ready = await ctx.client().get('/readyz');
      expect(ready.status).toBe(503);
      expect((await ready.json()).database).toStartWith('full');
      expect((await ctx.client().get('/healthz')).status).toBe(200);
      expect(
        await ctx
          .client()
          .get('/metrics')
          .then((r) => r.text()),
      ).toContain('csa_storage_full 1');
      const events = errors.mock.calls.map(([fields]) => (fields as { event?: string }).event);
      expect(events).toEqual(['storage_full']);
    } finally {
      errors.mockRestore();
    }

    // Room again: the next probe (at most once a second while full) writes, and the process is ready.
    freeDisk(ctx);
    expect(storageWritable(ctx.db, Date.now() + 1_000)).toBe(true);
    expect((await ctx.client().get('/readyz')).status).toBe(200);
    expect((await register(ctx, 'room-again')).status).toBe(201);
    expect(
      await ctx
        .client()
        .get('/metrics')
        .then((r) => r.text()),
    ).toContain('csa_storage_full 0');
  });

  test('jobs that cannot write while the disk is full: one storage_full error for the episode, no stack a minute', async () => {
    const ctx = await testApp();
    const errors = spyOn(log, 'error');
    try {
      fillDisk(ctx);
      const writer = {
        name: 'writer',
        run: () => void ctx.db.$client.query("insert into app_settings (key, value, updated_at) values ('job-' || random(), hex(zeroblob(4000)), 0)").run(),
      };
      const scheduler = startScheduler([writer], ctx.clock, { lease: { db: ctx.db, holder: 'test', leaseMs: 60_000 }, intervalMs: 3_600_000 });
      for (let i = 0; i < 3; i++) await scheduler.tick();
      await scheduler.stop();
      const events = errors.mock.calls.map(([fields]) => (fields as { event?: string }).event);
      expect(events).toEqual(['storage_full']);
    } finally {
      errors.mockRestore();
      freeDisk(ctx);
    }
  });
});
