import { and, asc, count, eq, lte } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import { errorFields, log } from '../../log.ts';
import type { Clock } from '../clock.ts';
import { withPublicUrl } from './compose.ts';
import { EXPIRED_LINK, settleMailOff, withoutSecretBody } from './retention.ts';
import { isPermanentMailError, type MailTransport } from './transport.ts';

export { SCRUBBED } from './retention.ts';

/*
 * Sends what the outbox holds. Each row is claimed with a conditional UPDATE that moves its
 * nextAttemptAt forward (a lease), so two processes, or a tick that overlaps a slow send, never
 * send one message twice. A failure backs off and retries; a permanent refusal (5xx) is retried
 * a few times only, since a mailbox that is full today may not be tomorrow.
 */

/** Waits after the 1st, 2nd, ... failed attempt. */
export const MAIL_BACKOFF_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000];
export const MAX_MAIL_ATTEMPTS = MAIL_BACKOFF_MS.length + 1;
const MAX_PERMANENT_ATTEMPTS = 3;
/** A claimed row is left alone this long; longer than any SMTP timeout. */
const SEND_LEASE_MS = 2 * 60_000;
const BATCH = 20;

const mailLog = log.child({ component: 'mail' });

export interface MailSendResult {
  sent: number;
  failed: number;
  retrying: number;
}

export interface MailSenderDeps {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  publicUrl: string;
  /** Told about each message sent or given up (the metrics). */
  observe?: (outcome: 'sent' | 'retry' | 'failed') => void;
}

function claim(db: Db, id: number, attempts: number, until: number): boolean {
  return (
    db.$client
      .query('UPDATE email_outbox SET next_attempt_at = ?, attempts = attempts + 1 WHERE id = ? AND status = ? AND attempts = ?')
      .run(until, id, 'pending', attempts).changes === 1
  );
}

export async function sendPendingEmails(deps: MailSenderDeps): Promise<MailSendResult> {
  const { db, clock, transport } = deps;
  const result: MailSendResult = { sent: 0, failed: 0, retrying: 0 };
  const due = db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, clock.now())))
    .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
    .limit(BATCH)
    .all();
  for (const row of due) {
    if (row.linkExpiresAt !== null && row.linkExpiresAt <= clock.now()) {
      // A link that no longer works is not worth sending, nor keeping.
      db.update(emailOutbox)
        .set({ status: 'expired', nextAttemptAt: null, textBody: EXPIRED_LINK, htmlBody: EXPIRED_LINK, linkExpiresAt: null })
        .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, 'pending')))
        .run();
      continue;
    }
    if (!claim(db, row.id, row.attempts, clock.now() + SEND_LEASE_MS)) continue;
    const attempt = row.attempts + 1;
    try {
      const sent = await transport.send({
        id: row.id,
        kind: row.kind,
        to: row.toAddress,
        subject: row.subject,
        text: withPublicUrl(row.textBody, deps.publicUrl),
        html: withPublicUrl(row.htmlBody, deps.publicUrl),
      });
      // A reset or confirmation link is a key to the account: once sent, the store keeps no copy of it.
      const scrub = withoutSecretBody(row.kind);
      db.update(emailOutbox)
        .set({ status: 'sent', sentAt: clock.now(), messageId: sent.messageId, lastError: null, nextAttemptAt: null, ...scrub })
        .where(eq(emailOutbox.id, row.id))
        .run();
      result.sent++;
      deps.observe?.('sent');
      mailLog.info(
        { event: 'mail_sent', outboxId: row.id, kind: row.kind, attempt, messageId: sent.messageId },
        `e-mail ${row.id} (${row.kind}) sent: ${sent.messageId}`,
      );
    } catch (error) {
      const permanent = isPermanentMailError(error);
      const giveUp = attempt >= (permanent ? MAX_PERMANENT_ATTEMPTS : MAX_MAIL_ATTEMPTS);
      const lastError = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
      db.update(emailOutbox)
        .set(
          giveUp
            ? { status: 'failed', lastError, nextAttemptAt: null, ...withoutSecretBody(row.kind) }
            : { lastError, nextAttemptAt: clock.now() + MAIL_BACKOFF_MS[Math.min(attempt - 1, MAIL_BACKOFF_MS.length - 1)]! },
        )
        .where(eq(emailOutbox.id, row.id))
        .run();
      if (giveUp) result.failed++;
      else result.retrying++;
      deps.observe?.(giveUp ? 'failed' : 'retry');
      const fields = { event: giveUp ? 'mail_failed' : 'mail_retry', outboxId: row.id, kind: row.kind, attempt, permanent, ...errorFields(error) };
      if (giveUp) mailLog.error(fields, `e-mail ${row.id} (${row.kind}) given up after ${attempt} attempts`);
      else mailLog.warn(fields, `e-mail ${row.id} (${row.kind}) failed, will retry`);
    }
  }
  return result;
}

/** Messages waiting to go out (the backlog gauge); with MAIL=off nothing waits (settleMailOff). */
export function pendingEmailCount(db: Queryable): number {
  return db.select({ n: count() }).from(emailOutbox).where(eq(emailOutbox.status, 'pending')).get()?.n ?? 0;
}

/**
 * Sends every couple of seconds while `active()` says this process runs the jobs, so a receipt
 * or a reset link leaves within seconds rather than on the next minute's tick. Without a
 * transport (MAIL=off) it settles what is queued as never to be sent.
 */
export function startMailPump(deps: Omit<MailSenderDeps, 'transport'> & { transport: MailTransport | null; intervalMs?: number; active: () => boolean }) {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const { transport } = deps;
  const timer = setInterval(() => {
    if (busy || !deps.active()) return;
    busy = true;
    running = (transport ? sendPendingEmails({ ...deps, transport }) : Promise.resolve().then(() => settleMailOff(deps.db)))
      .catch((error) => mailLog.error({ event: 'mail_pump_failed', ...errorFields(error) }, 'mail pump failed'))
      .finally(() => {
        busy = false;
      });
  }, deps.intervalMs ?? 2_000);
  return {
    /** No more sends; resolves once the one in flight has finished. */
    async stop() {
      clearInterval(timer);
      await running;
      transport?.close();
    },
  };
}
