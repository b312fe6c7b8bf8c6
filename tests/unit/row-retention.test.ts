import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../src/config.ts';
import { products } from '../../src/db/schema.ts';
import { RateLimiter } from '../../src/domain/operations/rate-limit.ts';
import { pruneStoreRows } from '../../src/domain/operations/row-retention.ts';
import { sliceCounter } from '../../src/domain/operations/slices.ts';
import { enter, player, seededStore } from '../helpers/admin-tools.ts';
import { fivePicks } from '../helpers/games.ts';

const DAY = 24 * 60 * 60 * 1000;
const retention = loadConfig({ NODE_ENV: 'test' }).retention;

const count = (ctx: Awaited<ReturnType<typeof seededStore>>, sql: string, ...params: (string | number)[]) =>
  (ctx.db.$client.query(sql).get(...params) as { n: number }).n;

describe('store-wide retention', () => {
  test('the defaults: notifications 90 days, sessions at expiry, void plays 30 days, limit rows 24 hours, e-mails 30 days', () => {
    expect(retention).toEqual({ notificationsDays: 90, expiredSessionsDays: 0, voidPlaysDays: 30, rateLimitHours: 24, mailDays: 30 });
  });

  test('old rows go, young ones stay, and nothing a payment or a settled game needs is touched', async () => {
    const ctx = await seededStore();
    const now = ctx.clock.now();
    const book =
      ctx.db.select().from(products).where(eq(products.model, '978-0684801223')).get() ??
      ctx.db.select().from(products).where(eq(products.playEnabled, true)).get()!;
    const paid = await player(ctx, 'paid-player');
    const entered = await enter(paid, book.id, fivePicks(ctx.db, 0));
    const sql = ctx.db.$client;
    const userId = paid.id;

    // Notifications: one old, one young.
    const note = (at: number) =>
      sql.query("insert into notifications (user_id, type, title, message, created_at) values (?, 'game_started', 't', 'm', ?)").run(userId, at);
    note(now - 91 * DAY);
    note(now - 89 * DAY);
    // Sessions: one expired, one live.
    sql.query("insert into sessions (id, user_id, expires_at, created_at) values ('old-session', ?, ?, ?)").run(userId, now - DAY, now - 31 * DAY);
    // Void plays in the waiting game: an old one without a payment goes; a young one stays.
    const voidPlay = (username: string, at: number) => {
      const user = sql.query("insert into users (username, password_hash, created_at) values (?, 'x', ?) returning id").get(username, at) as { id: number };
      return (
        sql
          .query("insert into plays (product_id, game_id, user_id, influencer_ids, status, created_at) values (?, ?, ?, '[]', 'void', ?) returning id")
          .get(book.id, entered.gameId, user.id, at) as { id: number }
      ).id;
    };
    const oldVoid = voidPlay('old-void', now - 31 * DAY);
    const youngVoid = voidPlay('young-void', now - 29 * DAY);
    // An old void play that a payment row names stays (its voided hold is money history).
    const namedVoid = voidPlay('named-void', now - 40 * DAY);
    sql.query('update payments set play_id = ? where id = (select id from payments where play_id = ?)').run(namedVoid, entered.id);
    // Rate-limit rows: one a day old, one fresh.
    const limiter = new RateLimiter(ctx.db, 'login-ip', 10, 15 * 60_000, ctx.clock);
    ctx.clock.set(now - 25 * 60 * 60 * 1000);
    limiter.record('203.0.113.7');
    ctx.clock.set(now);
    limiter.record('203.0.113.7');

    const paymentsBefore = count(ctx, 'select count(*) as n from payments');
    const pruned = await pruneStoreRows(ctx.db, now, retention);
    expect(pruned).toEqual({ notifications: 1, sessions: 1, voidPlays: 1, endedExclusions: 0, guestCarts: 0, rateLimitEvents: 1, mailLinks: 0, mailRows: 0 });
    expect(count(ctx, 'select count(*) as n from plays where id = ?', oldVoid)).toBe(0);
    expect(count(ctx, 'select count(*) as n from plays where id in (?, ?)', youngVoid, namedVoid)).toBe(2);
    expect(count(ctx, 'select count(*) as n from payments')).toBe(paymentsBefore);
    expect(count(ctx, 'select count(*) as n from notifications where user_id = ?', userId)).toBeGreaterThanOrEqual(1);

    // A settled game's void plays stay with its audit record, however old.
    sql.query("update games set status = 'completed' where id = ?").run(entered.gameId);
    expect((await pruneStoreRows(ctx.db, now + 365 * DAY, retention)).voidPlays).toBe(0);
    expect(count(ctx, "select count(*) as n from plays where status = 'void'")).toBe(2);
  });

  test('the file stops growing: freed pages go back to the file system, in slices', async () => {
    const ctx = await seededStore();
    const sql = ctx.db.$client;
    expect((sql.query('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum).toBe(2);
    const now = ctx.clock.now();
    const user = sql.query("insert into users (username, password_hash, created_at) values ('noisy', 'x', 0) returning id").get() as { id: number };
    const insert = sql.query("insert into notifications (user_id, type, title, message, created_at) values (?, 'game_started', ?, 'm', ?)");
    sql.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(user.id, 'x'.repeat(500), now - 100 * DAY);
    })();
    const pages = () => (sql.query('PRAGMA page_count').get() as { page_count: number }).page_count;
    const before = pages();
    const yields = sliceCounter.yields;
    expect((await pruneStoreRows(ctx.db, now, retention)).notifications).toBe(3000);
    // issue 26 row 5: a backlog goes in slices of a thousand rows, with requests answered in between.
    expect(sliceCounter.yields - yields).toBeGreaterThanOrEqual(3);
    expect(pages()).toBeLessThan(before);
    expect((sql.query('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count).toBe(0);
  });
});
