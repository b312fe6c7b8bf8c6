import { and, eq, gt, inArray, isNull, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { accountTokens, userProfiles, users } from '../../db/schema.ts';
import { endAccountLinks } from './account-recovery.ts';
import { newAccountToken, tokenHash } from './account-tokens.ts';
import type { AccountLimits } from './account-limits.ts';
import { checkCurrentPassword } from './accounts.ts';
import type { PasswordHasher } from './passwords.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { minutesText } from '../operations/rate-limit.ts';

/*
 * An account's address counts (users.email: resets and unlock links go there) only once its
 * owner opens the link sent to it (24 hours, single use, only the hash stored) and the account's
 * password was given: for a new address when it was asked for (profile.ts; the old address is
 * warned), for the first one when the link is opened. A stolen session alone cannot take the
 * account. A confirmed address belongs
 * to one account: a second account's link for it is refused when opened.
 */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_LINK_INVALID = 'This confirmation link is invalid or has expired. Change your e-mail again to get a new one.';
export const EMAIL_TAKEN = 'This e-mail address already belongs to another account. Log in to that account, or use another address.';

const EMAIL_PURPOSES: ('email_change' | 'email_confirm')[] = ['email_change', 'email_confirm'];
export const EMAIL_PASSWORD_NEEDED = 'Enter the password of your account to confirm this address.';
export const EMAIL_PASSWORD_WRONG = 'Your password is not right.';

const masked = (address: string) => address.replace(/^(.)[^@]*(@.*)$/, '$1•••$2');

/** The address waiting for confirmation, if any. */
export function pendingEmailOf(db: Queryable, clock: Clock, userId: number): string | null {
  return pendingEmailQuery(db).get({ userId, now: clock.now() })?.email ?? null;
}

/* The profile page and every profile save read and write these: built once (db/prepared.ts). */
const pendingEmailQuery = preparedOnce((db) =>
  db
    .select({ email: accountTokens.email })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, sql.placeholder('userId')),
        inArray(accountTokens.purpose, EMAIL_PURPOSES),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql.placeholder('now')),
        isNotNull(accountTokens.email),
      ),
    )
    .prepare(),
);
const endOpenEmailLinks = preparedOnce((db) =>
  db
    .update(accountTokens)
    .set({ usedAt: sql`${sql.placeholder('now')}` })
    .where(and(eq(accountTokens.userId, sql.placeholder('userId')), inArray(accountTokens.purpose, EMAIL_PURPOSES), isNull(accountTokens.usedAt)))
    .prepare(),
);
const insertEmailLink = preparedOnce((db) =>
  db
    .insert(accountTokens)
    .values({
      userId: sql.placeholder('userId'),
      purpose: sql.placeholder('purpose'),
      tokenHash: sql.placeholder('tokenHash'),
      email: sql.placeholder('email'),
      expiresAt: sql.placeholder('expiresAt'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning({ id: accountTokens.id })
    .prepare(),
);

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
  endOpenEmailLinks(tx).run({ userId: user.id, now });
  const row = insertEmailLink(tx).get({
    userId: user.id,
    purpose: current ? 'email_change' : 'email_confirm',
    tokenHash: tokenHash(token),
    email: wanted,
    expiresAt: now + EMAIL_CHANGE_TTL_MS,
    createdAt: now,
  })!;
  queueEmail(tx, clock, {
    userId: user.id,
    to: wanted,
    kind: 'email_change',
    eventKey: `email-change:${row.id}:confirm`,
    linkExpiresAt: now + EMAIL_CHANGE_TTL_MS,
    subject: current ? 'Confirm your new e-mail address' : 'Confirm your e-mail address',
    body: composeEmail({
      heading: current ? 'Confirm your new e-mail address' : 'Confirm your e-mail address',
      paragraphs: [
        `The account ${user.username} asked to use this address for its receipts and messages.`,
        current
          ? 'Open the link below within 24 hours to confirm. Until then, messages keep going to the old address.'
          : 'Open the link below within 24 hours and enter your password to confirm. Until then, we cannot send a password reset link here.',
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

type ConfirmDeps = { db: Db; clock: Clock; limits: AccountLimits; passwords: PasswordHasher };

/** The open e-mail link a token names, if any. */
function openEmailLink(db: Queryable, clock: Clock, token: string) {
  return openEmailLinkQuery(db).get({ tokenHash: tokenHash(token), now: clock.now() });
}

/* The link's page reads it on every open, and again to confirm: built once (db/prepared.ts). */
const openEmailLinkQuery = preparedOnce((db) =>
  db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, sql.placeholder('tokenHash')),
        inArray(accountTokens.purpose, EMAIL_PURPOSES),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare(),
);

/** What the link's page asks: nothing more (a new address, the password was asked), the password (a first address), or it is dead. */
export function emailLinkNeeds(db: Queryable, clock: Clock, token: string): 'button' | 'password' | 'invalid' {
  const link = token ? openEmailLink(db, clock, token) : undefined;
  if (!link) return 'invalid';
  return link.purpose === 'email_confirm' ? 'password' : 'button';
}

/**
 * Confirms once per link: the address becomes the account's (and the profile's). Every other
 * open reset and e-mail link ends; an address another account confirmed is refused. A first
 * address also needs the account's password (counted like the other current-password checks):
 * a stolen session that typed its own address cannot make it the account's.
 */
export async function confirmEmail(deps: ConfirmDeps, input: { token: string; password?: string }): Promise<{ userId: number; email: string; first: boolean }> {
  const { db, clock } = deps;
  const link = openEmailLink(db, clock, input.token);
  if (!link?.email) throw new DomainError(400, EMAIL_LINK_INVALID, { token: EMAIL_LINK_INVALID });
  const first = link.purpose === 'email_confirm';
  if (first) {
    if (!input.password) throw new DomainError(400, EMAIL_PASSWORD_NEEDED, { password: EMAIL_PASSWORD_NEEDED });
    await checkCurrentPassword(deps, link.userId, input.password, new DomainError(400, EMAIL_PASSWORD_WRONG, { password: EMAIL_PASSWORD_WRONG }));
  }
  const email = link.email;
  const now = clock.now();
  try {
    return db.transaction((tx) => {
      // Single use, also when the same link is sent twice at once.
      const claimed = tx
        .update(accountTokens)
        .set({ usedAt: now })
        .where(and(eq(accountTokens.id, link.id), isNull(accountTokens.usedAt)))
        .returning({ id: accountTokens.id })
        .get();
      const account = tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, link.userId)).get();
      if (!claimed || !account || account.deletedAt !== null) throw new DomainError(400, EMAIL_LINK_INVALID, { token: EMAIL_LINK_INVALID });
      const owner = tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, link.userId)))
        .get();
      if (owner) throw emailTaken();
      tx.update(userProfiles).set({ email, updatedAt: now }).where(eq(userProfiles.userId, link.userId)).run();
      tx.update(users).set({ email }).where(eq(users.id, link.userId)).run();
      endAccountLinks(tx, link.userId, now);
      return { userId: link.userId, email, first };
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
  return !!confirmedEmailQuery(db).get({ userId });
}

/* Every profile save that names an address asks: built once (db/prepared.ts). */
const confirmedEmailQuery = preparedOnce((db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('userId')), isNotNull(users.email)))
    .prepare(),
);
