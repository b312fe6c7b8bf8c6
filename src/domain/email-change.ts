import { and, eq, gt, isNull, isNotNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { accountTokens, userProfiles, users } from '../db/schema.ts';
import { endAccountLinks } from './account-recovery.ts';
import { newAccountToken, tokenHash } from './account-tokens.ts';
import type { AccountLimits } from './accounts.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import { composeEmail } from './mail/compose.ts';
import { queueEmail } from './mail/outbox.ts';
import { minutesText } from './rate-limit.ts';

/*
 * An account's address counts (users.email: resets and unlock links go there) only once its
 * owner opens the link sent to it (24 hours, single use, only the hash stored): the first
 * address too, and a new one, which also needs the current password (profile.ts) and warns the
 * old address, so a stolen session cannot quietly take the account. A confirmed address belongs
 * to one account: a second account's link for it is refused when opened.
 */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_LINK_INVALID = 'This confirmation link is invalid or has expired. Change your e-mail again to get a new one.';
export const EMAIL_TAKEN = 'This e-mail address already belongs to another account. Log in to that account, or use another address.';

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
 * Sends a confirmation link inside the caller's transaction: only the newest link works. For a
 * new address (`current` set) the current one gets a warning too.
 */
export function requestEmailChange(
  tx: Queryable,
  clock: Clock,
  limits: AccountLimits,
  user: { id: number; username: string },
  current: string | null,
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
    subject: current ? 'Confirm your new e-mail address' : 'Confirm your e-mail address',
    body: composeEmail({
      heading: current ? 'Confirm your new e-mail address' : 'Confirm your e-mail address',
      paragraphs: [
        `The account ${user.username} asked to use this address for its receipts and messages.`,
        current
          ? 'Open the link below within 24 hours to confirm. Until then, messages keep going to the old address.'
          : 'Open the link below within 24 hours to confirm. Until then, we cannot send a password reset link here.',
      ],
      action: { label: 'Confirm this address', path: `/auth/confirm-email?token=${token}` },
      footnote: 'If you did not ask for this, ignore this message: nothing changes.',
    }),
  });
  if (!current) return;
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

/**
 * Confirms once per link: the address becomes the account's (and the profile's). Every other
 * open reset and e-mail link ends; an address another account confirmed is refused.
 */
export function confirmEmailChange(db: Queryable, clock: Clock, token: string): { userId: number; email: string; first: boolean } {
  const now = clock.now();
  try {
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
      const owner = tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${claimed.email.toLowerCase()}`, ne(users.id, claimed.userId)))
        .get();
      if (owner) throw emailTaken();
      // The profile already shows this address when it was the first one: confirmed, not changed.
      const before = tx.select({ email: userProfiles.email }).from(userProfiles).where(eq(userProfiles.userId, claimed.userId)).get()?.email;
      tx.update(userProfiles).set({ email: claimed.email, updatedAt: now }).where(eq(userProfiles.userId, claimed.userId)).run();
      tx.update(users).set({ email: claimed.email }).where(eq(users.id, claimed.userId)).run();
      endAccountLinks(tx, claimed.userId, now);
      return { userId: claimed.userId, email: claimed.email, first: before?.trim().toLowerCase() === claimed.email.toLowerCase() };
    });
  } catch (error) {
    // Two accounts confirming one address at once: the unique index decided.
    if (String(error).includes('UNIQUE')) throw emailTaken();
    throw error;
  }
}

function emailTaken(): DomainError {
  return new DomainError(409, EMAIL_TAKEN, { token: EMAIL_TAKEN });
}

/** Whether the account's address was confirmed (users.email holds it). */
export function hasConfirmedEmail(db: Queryable, userId: number): boolean {
  return !!db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.email)))
    .get();
}
