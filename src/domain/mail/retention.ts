import type { Db } from '../../db/client.ts';

/*
 * How long the outbox keeps what it sent (docs/operations.md, Retention). A message is only
 * needed until it is sent: after that it is the store's copy of a customer's receipt, 4 KiB a
 * message, in every backup. So a message goes RETENTION_MAIL_DAYS after it was queued (deleted,
 * not blanked: SQLite packs pages again only on delete), and a single-use link's body as soon as
 * it is sent, given up, or no longer works.
 */

const DAY = 24 * 60 * 60 * 1000;
/** Messages that carry a single-use link (reset, unlock, e-mail confirmation). */
export const SECRET_KINDS: ReadonlySet<string> = new Set(['password_reset', 'email_change', 'account_unlock']);
export const SCRUBBED = '[removed after sending: it held a single-use link]';
export const EXPIRED_LINK = '[removed: its single-use link stopped working]';
/** Rows per kind of change and run: deleting 500 receipts takes under 10 ms; a backlog goes a batch a minute. */
export const MAIL_PRUNE_BATCH = 500;

const secretList = [...SECRET_KINDS].map((kind) => `'${kind}'`).join(', ');

/** The columns that blank a body that held a link, for an UPDATE of a row leaving `pending`. */
export function withoutSecretBody(kind: string) {
  return SECRET_KINDS.has(kind) ? { textBody: SCRUBBED, htmlBody: SCRUBBED, linkExpiresAt: null } : {};
}

/**
 * One retention run over the outbox: links past their expiry first (a message still waiting
 * with one is not sent any more: `expired`), then messages older than `keepDays`, never one
 * still waiting to be sent.
 */
export function pruneOutbox(db: Db, now: number, keepDays: number): { mailLinks: number; mailRows: number } {
  const sql = db.$client;
  const mailLinks = sql
    .query(
      `update email_outbox set
         status = case when status = 'pending' then 'expired' else status end,
         next_attempt_at = case when status = 'pending' then null else next_attempt_at end,
         text_body = ?1, html_body = ?1, link_expires_at = null
       where id in (select id from email_outbox where link_expires_at is not null and link_expires_at <= ?2 limit ?3)`,
    )
    .run(EXPIRED_LINK, now, MAIL_PRUNE_BATCH).changes;
  const mailRows = sql
    .query(
      `delete from email_outbox where id in (
         select id from email_outbox where created_at < ? and status <> 'pending' order by created_at limit ?)`,
    )
    .run(now - keepDays * DAY, MAIL_PRUNE_BATCH).changes;
  return { mailLinks, mailRows };
}

/**
 * MAIL=off: what is queued will never be sent. Settled as `mail_off` (links blanked at once),
 * so the backlog counts only mail that can still leave and its alert stays quiet.
 */
export function settleMailOff(db: Db): number {
  return db.$client
    .query(
      `update email_outbox set status = 'mail_off', next_attempt_at = null,
         text_body = case when kind in (${secretList}) then ?1 else text_body end,
         html_body = case when kind in (${secretList}) then ?1 else html_body end,
         link_expires_at = null
       where id in (select id from email_outbox where status = 'pending' limit ?2)`,
    )
    .run(EXPIRED_LINK, MAIL_PRUNE_BATCH).changes;
}
