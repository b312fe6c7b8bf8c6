import { and, eq, gt, isNull, isNotNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { accountTokens, userProfiles, users } from '../db/schema.ts';
import { newAccountToken, tokenHash } from './account-recovery.ts';
import type { AccountLimits } from './accounts.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import { composeEmail } from './mail/compose.ts';
import { queueEmail } from './mail/outbox.ts';
import { minutesText } from './rate-limit.ts';

/*
 * Changing the e-mail of an account that has one: receipts and password resets go to it, so the
 * new address counts only once its owner opens the link sent there (24 hours, single use, only
 * the hash stored); the old address is told, so a stolen session cannot quietly take the account.
 */

export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_LINK_INVALID = 'This confirmation link is invalid or has expired. Change your e-mail again to get a new one.';

const masked = (address: string) => address.replace(/^(.)[^@]*(@.*)$/, '$1•••$2');

/** The address waiting for confirmation, if any. */
export function pendingEmailOf(db: Queryable, clock: Clock, userId: number): string | null {
  const row = db
    .select({ email: accountTokens.email })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, 'email_change'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, clock.now()),
        isNotNull(accountTokens.email),
      ),
    )
    .get();
  return row?.email ?? null;
}

/**
 * Starts the change inside the caller's transaction: only the newest link works; the link goes to
 * the new address, a warning to the current one.
 */
export function requestEmailChange(
  tx: Queryable,
  clock: Clock,
  limits: AccountLimits,
  user: { id: number; username: string },
  current: string,
  wanted: string,
): void {
  const wait = limits.passwordResetsByAccount.attempt(`email-change:${user.id}`);
  if (wait > 0) {
    const message = `Too many e-mail changes. Please try again in ${minutesText(wait)}.`;
    throw new DomainError(429, message, { email: message });
  }
  const token = newAccountToken();
  const now = clock.now();
  tx.update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, 'email_change'), isNull(accountTokens.usedAt)))
    .run();
  const row = tx
    .insert(accountTokens)
    .values({ userId: user.id, purpose: 'email_change', tokenHash: tokenHash(token), email: wanted, expiresAt: now + EMAIL_CHANGE_TTL_MS, createdAt: now })
    .returning({ id: accountTokens.id })
    .get();
  queueEmail(tx, clock, {
    userId: user.id,
    to: wanted,
    kind: 'email_change',
    eventKey: `email-change:${row.id}:confirm`,
    subject: 'Confirm your new e-mail address',
    body: composeEmail({
      heading: 'Confirm your new e-mail address',
      paragraphs: [
        `The account ${user.username} asked to use this address for its receipts and messages.`,
        'Open the link below within 24 hours to confirm. Until then, messages keep going to the old address.',
      ],
      action: { label: 'Confirm this address', path: `/auth/confirm-email?token=${token}` },
      footnote: 'If you did not ask for this, ignore this message: nothing changes.',
    }),
  });
  queueEmail(tx, clock, {
    userId: user.id,
    to: current,
    kind: 'email_change',
    eventKey: `email-change:${row.id}:warn`,
    subject: 'Your e-mail address is being changed',
    body: composeEmail({
      heading: 'Your e-mail address is being changed',
      paragraphs: [
        `The account ${user.username} asked to move its e-mail from this address to ${masked(wanted)}. It changes only when that address confirms.`,
        'If this was not you, change your password now: it signs out every other device.',
      ],
      action: { label: 'Change my password', path: '/profile?tab=account' },
    }),
  });
}

/** Confirms once per link: the profile's address becomes the new one. */
export function confirmEmailChange(db: Queryable, clock: Clock, token: string): { userId: number; email: string } {
  const now = clock.now();
  return db.transaction((tx) => {
    const claimed = tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountTokens.tokenHash, tokenHash(token)),
          eq(accountTokens.purpose, 'email_change'),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, now),
        ),
      )
      .returning({ userId: accountTokens.userId, email: accountTokens.email })
      .get();
    const account = claimed ? tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, claimed.userId)).get() : undefined;
    if (!claimed?.email || !account || account.deletedAt !== null) throw new DomainError(400, EMAIL_LINK_INVALID, { token: EMAIL_LINK_INVALID });
    tx.update(userProfiles).set({ email: claimed.email, updatedAt: now }).where(eq(userProfiles.userId, claimed.userId)).run();
    tx.update(users)
      .set({ email: claimed.email })
      .where(and(eq(users.id, claimed.userId), isNotNull(users.email)))
      .run();
    return { userId: claimed.userId, email: claimed.email };
  });
}
