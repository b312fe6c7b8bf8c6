import { expect, test } from 'bun:test';
import { pruneOutbox } from '../../src/domain/mail/retention.ts';
import { SCRUBBED } from '../../src/domain/mail/sender.ts';
import { storeBeforeMigration } from '../helpers/migrations.ts';

/*
 * Issue 26, row 8: migration 0011 gives the link messages queued before it the expiry of their
 * kind, so the retention job blanks a link an old outbox still holds.
 */

test('migration 0011: old link messages get their kind expiry; bodies already scrubbed are left alone', async () => {
  const store = storeBeforeMigration('0011_');
  try {
    const { db } = store;
    const sql = db.$client;
    const HOUR = 3_600_000;
    const mail = sql.query(
      "insert into email_outbox (to_address, kind, event_key, subject, text_body, html_body, status, created_at) values ('a@example.com', ?, ?, 's', ?, ?, ?, ?)",
    );
    mail.run('password_reset', 'waiting-reset', 'reset?token=OLD', 'reset?token=OLD', 'pending', 10 * HOUR);
    mail.run('account_unlock', 'sent-unlock', SCRUBBED, SCRUBBED, 'sent', 10 * HOUR);
    mail.run('email_change', 'waiting-change', 'confirm?token=OLD', 'confirm?token=OLD', 'pending', 10 * HOUR);
    mail.run('order_confirmation', 'receipt', 'thanks', 'thanks', 'sent', 10 * HOUR);

    const migrated = await store.migrateRest();
    const expiries = () => sql.query('select event_key as k, link_expires_at as at from email_outbox order by id').all();
    expect(expiries()).toEqual([
      { k: 'waiting-reset', at: 10.5 * HOUR },
      { k: 'sent-unlock', at: null },
      { k: 'waiting-change', at: 34 * HOUR },
      { k: 'receipt', at: null },
    ]);
    expect(pruneOutbox(migrated, 11 * HOUR, 30).mailLinks).toBe(1);
    expect(JSON.stringify(sql.query("select text_body, html_body from email_outbox where event_key = 'waiting-reset'").get())).not.toContain('OLD');
    sql.close();
  } finally {
    store.remove();
  }
});
