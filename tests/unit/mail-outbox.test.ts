import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase, applyMigrations, openMigratedDatabase, type Db } from '../../src/db/client.ts';
import { emailOutbox, userProfiles, users } from '../../src/db/schema.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { composeEmail, LINK_BASE } from '../../src/domain/mail/compose.ts';
import { queueEmail } from '../../src/domain/mail/outbox.ts';
import { MAIL_BACKOFF_MS, MAX_MAIL_ATTEMPTS, sendPendingEmails } from '../../src/domain/mail/sender.ts';
import { fileTransport, type MailMessage, type MailTransport, smtpTransport } from '../../src/domain/mail/transport.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

function addUser(db: Db, clock: ManualClock, name: string, email: string | null, emailNotifications = true): number {
  const id = db.insert(users).values({ username: name, passwordHash: 'x', email, createdAt: clock.now() }).returning({ id: users.id }).get().id;
  db.insert(userProfiles).values({ userId: id, emailNotifications, updatedAt: clock.now() }).run();
  return id;
}

const body = composeEmail({ heading: 'Hello', paragraphs: ['First'], action: { label: 'Open', path: '/orders/1' } });

function recordingTransport(fail?: (m: MailMessage) => Error | undefined) {
  const sent: MailMessage[] = [];
  const transport: MailTransport = {
    async send(message) {
      const error = fail?.(message);
      if (error) throw error;
      sent.push(message);
      return { messageId: `<m${sent.length}@test>` };
    },
    close() {},
  };
  return { sent, transport };
}

describe('composeEmail', () => {
  test('escapes what users typed in the HTML part and keeps it readable in the text part', () => {
    const mail = composeEmail({
      heading: 'Order <b>1</b>',
      paragraphs: ['Tom & "Jerry" <script>alert(1)</script>'],
      rows: [['Item', '<img src=x onerror=alert(1)>']],
      action: { label: 'View', path: '/orders/1' },
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('Tom &amp; &quot;Jerry&quot; &lt;script&gt;');
    expect(mail.text).toContain('Tom & "Jerry" <script>alert(1)</script>');
    expect(mail.text).toContain(`View: ${LINK_BASE}/orders/1`);
    expect(mail.html).toContain(`href="${LINK_BASE}/orders/1"`);
  });
});

describe('queueEmail', () => {
  test('receipts always go out; other messages respect the e-mail preference; one message per event', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock();
    const quiet = addUser(db, clock, 'quiet', 'quiet@example.com', false);
    expect(queueEmail(db, clock, { userId: quiet, kind: 'order_confirmation', eventKey: 'order:1:placed', subject: 'Receipt', body })).toBe('queued');
    expect(queueEmail(db, clock, { userId: quiet, kind: 'order_confirmation', eventKey: 'order:1:placed', subject: 'Receipt', body })).toBe('duplicate');
    expect(queueEmail(db, clock, { userId: quiet, kind: 'password_reset', eventKey: 'reset:1', subject: 'Reset', body })).toBe('queued');
    expect(queueEmail(db, clock, { userId: quiet, kind: 'game_won', eventKey: 'game:1:won', subject: 'Won', body })).toBe('skipped');
    const rows = db.select().from(emailOutbox).all();
    expect(rows.map((r) => [r.kind, r.status, r.toAddress])).toEqual([
      ['order_confirmation', 'pending', 'quiet@example.com'],
      ['password_reset', 'pending', 'quiet@example.com'],
      ['game_won', 'skipped', 'quiet@example.com'],
    ]);
  });

  test('the profile address wins over the account one; no address or a deleted account queues nothing', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock();
    const both = addUser(db, clock, 'both', 'account@example.com');
    db.update(userProfiles).set({ email: 'profile@example.com' }).where(eq(userProfiles.userId, both)).run();
    const none = addUser(db, clock, 'none', null);
    const gone = addUser(db, clock, 'gone', 'gone@example.com');
    db.update(users).set({ deletedAt: clock.now() }).where(eq(users.id, gone)).run();
    expect(queueEmail(db, clock, { userId: both, kind: 'game_won', eventKey: 'a', subject: 's', body })).toBe('queued');
    expect(queueEmail(db, clock, { userId: none, kind: 'game_won', eventKey: 'b', subject: 's', body })).toBe('no-address');
    expect(queueEmail(db, clock, { userId: gone, kind: 'order_refund', eventKey: 'c', subject: 's', body })).toBe('no-address');
    expect(
      db
        .select()
        .from(emailOutbox)
        .all()
        .map((r) => r.toAddress),
    ).toEqual(['profile@example.com']);
  });
});

describe('sendPendingEmails', () => {
  test('sends due messages once with the store address in the links, then never again', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock();
    queueEmail(db, clock, { userId: null, to: 'a@example.com', kind: 'business_application', eventKey: 'x', subject: 'Hi', body });
    const { sent, transport } = recordingTransport();
    expect(await sendPendingEmails({ db, clock, transport, publicUrl: 'https://shop.example.com' })).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(sent[0]?.text).toContain('Open: https://shop.example.com/orders/1');
    expect(sent[0]?.html).toContain('href="https://shop.example.com/orders/1"');
    expect(await sendPendingEmails({ db, clock, transport, publicUrl: 'https://shop.example.com' })).toEqual({ sent: 0, failed: 0, retrying: 0 });
    const row = db.select().from(emailOutbox).get()!;
    expect([row.status, row.attempts, row.messageId]).toEqual(['sent', 1, '<m1@test>']);
  });

  test('a failure backs off and retries; after the last attempt the message is given up', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock();
    queueEmail(db, clock, { userId: null, to: 'a@example.com', kind: 'business_application', eventKey: 'x', subject: 'Hi', body });
    const { transport } = recordingTransport(() => new Error('connect ECONNREFUSED'));
    const deps = { db, clock, transport, publicUrl: 'http://x' };
    expect((await sendPendingEmails(deps)).retrying).toBe(1);
    // Not due again before the back-off has passed.
    clock.advance(MAIL_BACKOFF_MS[0]! - 1);
    expect((await sendPendingEmails(deps)).retrying).toBe(0);
    for (let attempt = 2; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      clock.advance(24 * 3_600_000);
      await sendPendingEmails(deps);
    }
    const row = db.select().from(emailOutbox).get()!;
    expect([row.status, row.attempts, row.lastError]).toEqual(['failed', MAX_MAIL_ATTEMPTS, 'connect ECONNREFUSED']);
  });

  test('a permanent refusal from a real SMTP server gives up after three attempts; skipped messages are never sent', async () => {
    const smtp = await startSmtpServer();
    try {
      const db = await openMigratedDatabase();
      const clock = new ManualClock();
      const quiet = addUser(db, clock, 'quiet', 'quiet@example.com', false);
      queueEmail(db, clock, { userId: quiet, kind: 'game_won', eventKey: 'won', subject: 'Won', body });
      queueEmail(db, clock, { userId: null, to: 'full@example.com', kind: 'business_application', eventKey: 'x', subject: 'Hi', body });
      smtp.refuse(550);
      const transport = smtpTransport(smtp.url, 'Shop <shop@example.com>');
      for (let i = 0; i < 3; i++) {
        await sendPendingEmails({ db, clock, transport, publicUrl: 'http://x' });
        clock.advance(24 * 3_600_000);
      }
      transport.close();
      const rows = db.select().from(emailOutbox).all();
      expect(rows.map((r) => [r.kind, r.status, r.attempts])).toEqual([
        ['game_won', 'skipped', 0],
        ['business_application', 'failed', 3],
      ]);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await smtp.stop();
    }
  });

  test('two senders on one database file send each message once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csa-mail-'));
    const first = openDatabase(join(dir, 'store.db'));
    await applyMigrations(first);
    const second = openDatabase(join(dir, 'store.db'));
    const clock = new ManualClock();
    for (let i = 0; i < 30; i++)
      queueEmail(first, clock, { userId: null, to: `p${i}@example.com`, kind: 'business_application', eventKey: `k${i}`, subject: 'Hi', body });
    const slow = () => {
      const record = recordingTransport();
      const send = record.transport.send;
      record.transport.send = async (m) => {
        await Bun.sleep(2);
        return send(m);
      };
      return record;
    };
    const a = slow();
    const b = slow();
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        sendPendingEmails({ db: first, clock, transport: a.transport, publicUrl: 'http://x' }),
        sendPendingEmails({ db: second, clock, transport: b.transport, publicUrl: 'http://x' }),
      ]);
    }
    const all = [...a.sent, ...b.sent].map((m) => m.to).sort();
    expect(all).toHaveLength(30);
    expect(new Set(all).size).toBe(30);
    expect(
      first
        .select()
        .from(emailOutbox)
        .all()
        .every((r) => r.status === 'sent'),
    ).toBe(true);
  });
});

describe('fileTransport', () => {
  test('writes one readable .eml per message with text and HTML parts, readable by the store only', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'csa-eml-')), 'mail');
    const transport = fileTransport(dir, '"CSA" <no-reply@localhost>');
    const { messageId } = await transport.send({
      id: 7,
      kind: 'password_reset',
      to: 'a@example.com',
      subject: 'Reset your password',
      text: 'plain part',
      html: '<p>html part</p>',
    });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-7-password_reset\.eml$/);
    expect(messageId).toBe(join(dir, files[0]!));
    const eml = readFileSync(messageId, 'utf8');
    expect(eml).toContain('Subject: Reset your password');
    expect(eml).toContain('To: a@example.com');
    expect(eml).toContain('multipart/alternative');
    expect(eml).toContain('plain part');
    expect(eml).toContain('<p>html part</p>');
    expect(statSync(messageId).mode & 0o777).toBe(0o600);
  });
});
