import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { type EmailKind, emailOutbox, userProfiles, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { EmailBody } from './compose.ts';

/*
 * Queueing a message. Call it with the transaction of the change the message reports, so the
 * change and its e-mail are written together or not at all (the outbox); the mail job sends it
 * later and retries. A message with an eventKey already queued is not queued again.
 */

/** Receipts and security messages go out whatever the profile's e-mail preference says. */
export const ESSENTIAL_EMAIL_KINDS: ReadonlySet<EmailKind> = new Set([
  'order_confirmation',
  'order_refund',
  'password_reset',
  'email_change',
  'account_unlock',
  'business_application',
]);

export interface NewEmail {
  /** The account it is about; null for someone without one (a business applicant). */
  userId: number | null;
  /** Defaults to the account's address (emailAddressOf). */
  to?: string | null;
  kind: EmailKind;
  eventKey: string;
  subject: string;
  body: EmailBody;
  /** When the single-use link in it stops working: it is not sent after that, and its body goes. */
  linkExpiresAt?: number;
}

/* Every message queued reads these and writes one row: built once (db/prepared.ts). */
// The account id is bound as `cast(? as integer)`: compared bare in a join, each new value would
// make SQLite compile the statement again (see accounts/sessions.ts).
const addressesQuery = preparedOnce((db) =>
  db
    .select({ accountEmail: users.email, profileEmail: userProfiles.email, deletedAt: users.deletedAt })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, sql`cast(${sql.placeholder('userId')} as integer)`))
    .prepare(),
);
const preferenceQuery = preparedOnce((db) =>
  db
    .select({ on: userProfiles.emailNotifications })
    .from(userProfiles)
    .where(eq(userProfiles.userId, sql.placeholder('userId')))
    .prepare(),
);
const insertEmail = preparedOnce((db) =>
  db
    .insert(emailOutbox)
    .values({
      userId: sql.placeholder('userId'),
      toAddress: sql.placeholder('toAddress'),
      kind: sql.placeholder('kind'),
      eventKey: sql.placeholder('eventKey'),
      subject: sql.placeholder('subject'),
      textBody: sql.placeholder('textBody'),
      htmlBody: sql.placeholder('htmlBody'),
      status: sql.placeholder('status'),
      nextAttemptAt: sql.placeholder('nextAttemptAt'),
      createdAt: sql.placeholder('createdAt'),
      linkExpiresAt: sql.placeholder('linkExpiresAt'),
    })
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id })
    .prepare(),
);

/** Where mail for an account goes: the profile's e-mail, else the account's; none for a deleted account. */
export function emailAddressOf(db: Queryable, userId: number): string | null {
  const row = addressesQuery(db).get({ userId });
  if (!row || row.deletedAt !== null) return null;
  return row.profileEmail?.trim() || row.accountEmail?.trim() || null;
}

/**
 * The account's confirmed address, where messages that give power over the account go (reset
 * and unlock links); none while no address was confirmed, or for a deleted account.
 */
export function confirmedEmailOf(db: Queryable, userId: number): string | null {
  const row = db.select({ email: users.email, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).get();
  if (!row || row.deletedAt !== null) return null;
  return row.email?.trim() || null;
}

/** Whether the account accepts messages that are not receipts or security messages. */
export function wantsEmail(db: Queryable, userId: number): boolean {
  const row = preferenceQuery(db).get({ userId });
  return row?.on ?? true;
}

export type QueueResult = 'queued' | 'skipped' | 'no-address' | 'duplicate';

export function queueEmail(db: Queryable, clock: Clock, email: NewEmail): QueueResult {
  const to = email.to?.trim() || (email.userId !== null ? emailAddressOf(db, email.userId) : null);
  if (!to) return 'no-address';
  const optedOut = !ESSENTIAL_EMAIL_KINDS.has(email.kind) && email.userId !== null && !wantsEmail(db, email.userId);
  const now = clock.now();
  const inserted = insertEmail(db).get({
    userId: email.userId,
    toAddress: to,
    kind: email.kind,
    eventKey: email.eventKey,
    subject: email.subject,
    textBody: email.body.text,
    htmlBody: email.body.html,
    // Kept as 'skipped' rather than dropped: the account page and support can see it was not sent, and why.
    status: optedOut ? 'skipped' : 'pending',
    nextAttemptAt: optedOut ? null : now,
    createdAt: now,
    linkExpiresAt: email.linkExpiresAt ?? null,
  });
  if (!inserted) return 'duplicate';
  return optedOut ? 'skipped' : 'queued';
}
