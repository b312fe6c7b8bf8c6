import { expect, test } from 'bun:test';
import { migrate } from 'drizzle-orm/bun-sqlite/migrator';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openMigratedDatabase } from '../../src/db/client.ts';
import { pruneOutbox } from '../../src/domain/mail/retention.ts';
import { SCRUBBED } from '../../src/domain/mail/sender.ts';
import { projectRoot } from '../../src/runtime-files.ts';

/*
 * Issue 26, row 8: migration 0011 gives the link messages queued before it the expiry of their
 * kind, so the retention job blanks a link an old outbox still holds.
 */

test('migration 0011: old link messages get their kind expiry; bodies already scrubbed are left alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'csa-0011-'));
  try {
    const before = join(dir, 'migrations');
    cpSync(join(projectRoot, 'src/db/migrations'), before, { recursive: true });
    const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8'));
    const index = journal.entries.findIndex((entry: { tag: string }) => entry.tag.startsWith('0011_'));
    expect(index).toBeGreaterThan(0);
    for (const entry of journal.entries.slice(index)) rmSync(join(before, `${entry.tag}.sql`));
    journal.entries = journal.entries.slice(0, index);
    writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal));

    mkdirSync(join(dir, 'data'));
    const db = openDatabase(join(dir, 'data', 'store.db'));
    migrate(db, { migrationsFolder: before });
    const sql = db.$client;
    const HOUR = 3_600_000;
    const mail = sql.query(
      "insert into email_outbox (to_address, kind, event_key, subject, text_body, html_body, status, created_at) values ('a@example.com', ?, ?, 's', ?, ?, ?, ?)",
    );
    mail.run('password_reset', 'waiting-reset', 'reset?token=OLD', 'reset?token=OLD', 'pending', 10 * HOUR);
    mail.run('account_unlock', 'sent-unlock', SCRUBBED, SCRUBBED, 'sent', 10 * HOUR);
    mail.run('email_change', 'waiting-change', 'confirm?token=OLD', 'confirm?token=OLD', 'pending', 10 * HOUR);
    mail.run('order_confirmation', 'receipt', 'thanks', 'thanks', 'sent', 10 * HOUR);

    const migrated = await openMigratedDatabase(join(dir, 'data', 'store.db'));
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
    rmSync(dir, { recursive: true, force: true });
  }
});
