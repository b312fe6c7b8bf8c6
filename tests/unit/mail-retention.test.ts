import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../src/config.ts';
import { openMigratedDatabase, type Db } from '../../src/db/client.ts';
import { emailOutbox, users } from '../../src/db/schema.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { composeEmail } from '../../src/domain/mail/compose.ts';
import { queueEmail } from '../../src/domain/mail/outbox.ts';
import { EXPIRED_LINK, MAIL_PRUNE_BATCH } from '../../src/domain/mail/retention.ts';
import { pendingEmailCount, SCRUBBED, sendPendingEmails, startMailPump } from '../../src/domain/mail/sender.ts';
import type { MailMessage, MailTransport } from '../../src/domain/mail/transport.ts';
import { pruneStoreRows } from '../../src/domain/operations/row-retention.ts';
import { createTelemetry } from '../../src/telemetry.ts';
import { RESET_TOKEN_TTL_MS } from '../../src/domain/accounts/account-recovery.ts';
import { answeredWorkDone } from '../../src/domain/operations/after-answer.ts';
import { testApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';

/* Issue 26 row 8: the outbox keeps sent messages RETENTION_MAIL_DAYS, links no longer than they work, and MAIL=off leaves no backlog. */

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;
const retention = loadConfig({ NODE_ENV: 'test' }).retention;
/** About the 4.1 KiB of a real receipt (text and HTML). */
const receipt = composeEmail({ heading: 'Thank you for your order', paragraphs: ['x'.repeat(1600)], action: { label: 'Your order', path: '/orders/1' } });
const resetLink = composeEmail({
  heading: 'Reset your password',
  paragraphs: ['Works 30 minutes.'],
  action: { label: 'Reset', path: '/auth/reset?token=SECRET-TOKEN' },
});

async function store() {
  const db = await openMigratedDatabase();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const userId = db
    .insert(users)
    .values({ username: 'ana', passwordHash: 'x', email: 'ana@example.com', createdAt: clock.now() })
    .returning({ id: users.id })
    .get().id;
  return { db, clock, userId };
}

function transport(fail = false) {
  const sent: MailMessage[] = [];
  const t: MailTransport = {
    async send(message) {
      if (fail) throw new Error('connection refused');
      sent.push(message);
      return { messageId: `<m${sent.length}@test>` };
    },
    close() {},
  };
  return { sent, transport: t };
}

const rowOf = (db: Db, eventKey: string) => db.select().from(emailOutbox).where(eq(emailOutbox.eventKey, eventKey)).get()!;

describe('outbox retention', () => {
  test('a sent receipt is kept 30 days (RETENTION_MAIL_DAYS), then goes', async () => {
    const { db, clock, userId } = await store();
    queueEmail(db, clock, { userId, kind: 'order_confirmation', eventKey: 'order:1:placed', subject: 'Receipt', body: receipt });
    await sendPendingEmails({ db, clock, publicUrl: 'https://shop.example.com', ...transport() });
    expect(rowOf(db, 'order:1:placed').textBody).toContain('Thank you for your order');

    expect((await pruneStoreRows(db, clock.now() + 29 * DAY, retention)).mailRows).toBe(0);
    expect((await pruneStoreRows(db, clock.now() + 31 * DAY, retention)).mailRows).toBe(1);
    expect(db.select().from(emailOutbox).all()).toEqual([]);
    // The setting moves the line.
    expect(loadConfig({ NODE_ENV: 'test', RETENTION_MAIL_DAYS: '7' }).retention.mailDays).toBe(7);
  });

  test('a message still waiting to be sent stays; an old backlog goes a batch per run and the file shrinks', async () => {
    const { db, clock, userId } = await store();
    queueEmail(db, clock, { userId, kind: 'order_confirmation', eventKey: 'waiting', subject: 'Receipt', body: receipt });
    const sql = db.$client;
    const insert = sql.query(
      "insert into email_outbox (user_id, to_address, kind, event_key, subject, text_body, html_body, status, created_at, sent_at) values (?, 'a@example.com', 'order_confirmation', ?, 's', ?, ?, 'sent', ?, ?)",
    );
    const old = clock.now() - 40 * DAY;
    sql.transaction(() => {
      for (let i = 0; i < MAIL_PRUNE_BATCH + 500; i++) insert.run(userId, `old:${i}`, receipt.text, receipt.html, old, old);
    })();
    const pages = () => (sql.query('PRAGMA page_count').get() as { page_count: number }).page_count;
    // The schema's own pages (every table and index, growing with each migration) are not the backlog's.
    const schemaPages = (sql.query('select count(*) as n from sqlite_schema where rootpage > 0').get() as { n: number }).n;
    const before = pages();
    expect((await pruneStoreRows(db, clock.now(), retention)).mailRows).toBe(MAIL_PRUNE_BATCH);
    expect((await pruneStoreRows(db, clock.now(), retention)).mailRows).toBe(500);
    expect((await pruneStoreRows(db, clock.now(), retention)).mailRows).toBe(0);
    expect(rowOf(db, 'waiting').textBody).toContain('Thank you for your order');
    // The freed pages go back to the file system over the runs (2,000 a run).
    expect(pages() - schemaPages).toBeLessThan((before - schemaPages) / 10);
  });
});

describe('single-use links in the outbox', () => {
  test('a reset link that could not be sent before it expired is never sent, and its body goes', async () => {
    const { db, clock, userId } = await store();
    queueEmail(db, clock, { userId, kind: 'password_reset', eventKey: 'reset:1', subject: 'Reset', body: resetLink, linkExpiresAt: clock.now() + 30 * MINUTE });
    // The mail server is down: the first try fails and the message waits for its retry.
    expect((await sendPendingEmails({ db, clock, publicUrl: 'https://shop.example.com', ...transport(true) })).retrying).toBe(1);
    expect(rowOf(db, 'reset:1').textBody).toContain('SECRET-TOKEN');
    clock.advance(31 * MINUTE);
    const up = transport();
    await sendPendingEmails({ db, clock, publicUrl: 'https://shop.example.com', ...up });
    expect(up.sent).toEqual([]);
    const row = rowOf(db, 'reset:1');
    expect([row.status, row.textBody, row.htmlBody]).toEqual(['expired', EXPIRED_LINK, EXPIRED_LINK]);
    expect(pendingEmailCount(db)).toBe(0);
  });

  test('a reset link is queued with the expiry of its token', async () => {
    const ctx = await testApp();
    const client = ctx.client();
    const { id } = (await (await client.post('/api/register', { json: { username: 'lena', password: 'first-pass' } })).json()) as { id: number };
    ctx.db.update(users).set({ email: 'lena@example.com' }).where(eq(users.id, id)).run();
    expect((await client.post('/api/password-reset', { json: { username: 'lena' } })).status).toBe(200);
    await answeredWorkDone();
    const row = ctx.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'password_reset')).get()!;
    expect(row.linkExpiresAt).toBe(ctx.clock.now() + RESET_TOKEN_TTL_MS);
  });

  test('the retention job blanks expired links wherever they wait, without the sender', async () => {
    const { db, clock, userId } = await store();
    queueEmail(db, clock, {
      userId,
      kind: 'account_unlock',
      eventKey: 'unlock:1',
      subject: 'Unlock',
      body: resetLink,
      linkExpiresAt: clock.now() + 60 * MINUTE,
    });
    expect((await pruneStoreRows(db, clock.now() + 59 * MINUTE, retention)).mailLinks).toBe(0);
    expect((await pruneStoreRows(db, clock.now() + 61 * MINUTE, retention)).mailLinks).toBe(1);
    const row = rowOf(db, 'unlock:1');
    expect([row.status, row.textBody, row.nextAttemptAt]).toEqual(['expired', EXPIRED_LINK, null]);
  });

  test('a sent link is blanked at once', async () => {
    const { db, clock, userId } = await store();
    queueEmail(db, clock, { userId, kind: 'email_change', eventKey: 'change:1', subject: 'Confirm', body: resetLink, linkExpiresAt: clock.now() + DAY });
    await sendPendingEmails({ db, clock, publicUrl: 'https://shop.example.com', ...transport() });
    const row = rowOf(db, 'change:1');
    expect([row.status, row.textBody, row.linkExpiresAt]).toEqual(['sent', SCRUBBED, null]);
  });
});

describe('MAIL=off', () => {
  test('what is queued is settled as never to be sent: the backlog gauge stays at 0 and links are blanked', async () => {
    const { db, clock, userId } = await store();
    queueEmail(db, clock, { userId, kind: 'order_confirmation', eventKey: 'order:1:placed', subject: 'Receipt', body: receipt });
    queueEmail(db, clock, { userId, kind: 'password_reset', eventKey: 'reset:1', subject: 'Reset', body: resetLink, linkExpiresAt: clock.now() + 30 * MINUTE });
    const telemetry = createTelemetry(db);
    const backlog = async () => /csa_email_outbox_backlog (\d+)/.exec(await telemetry.scrape())?.[1];
    expect(await backlog()).toBe('2');

    const pump = startMailPump({ db, clock, publicUrl: 'https://shop.example.com', transport: null, intervalMs: 5, active: () => true });
    try {
      await until(() => pendingEmailCount(db) === 0, 'the queued mail settled');
    } finally {
      await pump.stop();
    }
    expect(await backlog()).toBe('0');
    expect(rowOf(db, 'order:1:placed').status).toBe('mail_off');
    const reset = rowOf(db, 'reset:1');
    expect([reset.status, reset.textBody, reset.htmlBody]).toEqual(['mail_off', EXPIRED_LINK, EXPIRED_LINK]);
    // They go with the others, after RETENTION_MAIL_DAYS.
    expect((await pruneStoreRows(db, clock.now() + 31 * DAY, retention)).mailRows).toBe(2);
  });
});
