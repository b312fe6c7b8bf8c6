import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { accountTokens, sessions, users, type User } from '../../db/schema.ts';
import type { PasswordResetRequest } from '../../shared/schemas/account.ts';
import type { AccountLimits } from './account-limits.ts';
import { checkCurrentPassword, findUserByUsername } from './accounts.ts';
import type { PasswordHasher } from './passwords.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { composeEmail } from '../mail/compose.ts';
import { confirmedEmailOf, queueEmail } from '../mail/outbox.ts';
import { minutesText } from '../operations/rate-limit.ts';
import { afterAnswer } from '../operations/after-answer.ts';
import { newAccountToken, tokenHash } from './account-tokens.ts';
import { invalidateAllSessions } from './sessions.ts';

/*
 * 'Forgot password?': a single-use link e-mailed to the account's confirmed address, valid 30
 * minutes. The answer is the same, in words and in time, whether or not an account matched, so
 * the form cannot be used to find accounts. Every open link ends when the password changes. Only
 * the SHA-256 of the token is stored; the sender scrubs the message body once it has gone out.
 */

export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const RESET_REQUESTED =
  'If an account matches, we have e-mailed a link to reset its password. The link works for 30 minutes. Check your spam folder if it does not arrive.';
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired. Please ask for a new one.';

export { newAccountToken, tokenHash } from './account-tokens.ts';

/** The account a request names: by username, or by its confirmed address (never the profile's contact address). */
function accountFor(db: Queryable, input: PasswordResetRequest): User | undefined {
  if (input.username) return findUserByUsername(db, input.username);
  const email = input.email?.toLowerCase();
  if (!email) return undefined;
  return db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)))
    .get();
}

/** Ends every open reset and e-mail link of an account: a password change, a reset, 'sign out everywhere', a new address. */
export function endAccountLinks(tx: Queryable, userId: number, now: number): void {
  tx.update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(eq(accountTokens.userId, userId), inArray(accountTokens.purpose, ['password_reset', 'email_change', 'email_confirm']), isNull(accountTokens.usedAt)),
    )
    .run();
}

/** 'Sign out everywhere': every session ends, and so does every link that could open a new one. */
export function signOutEverywhere(db: Db, clock: Clock, userId: number): number {
  return db.transaction((tx) => {
    endAccountLinks(tx, userId, clock.now());
    return invalidateAllSessions(tx, userId);
  });
}

type ResetDeps = { db: Db; clock: Clock; limits: AccountLimits };

/**
 * POST /api/password-reset: answers at once, the same whatever the request names; finding the
 * account and queueing its link happen after the answer (`done`), so the time taken tells
 * nothing either (issue 25). The link goes only to a confirmed address.
 */
export function requestPasswordReset(deps: ResetDeps, input: PasswordResetRequest, ip: string): { message: string; done: Promise<void> } {
  if (!input.email && !input.username)
    throw new DomainError(400, 'Enter the e-mail address or username of your account.', { email: 'Enter the e-mail address or username of your account.' });
  const wait = deps.limits.passwordResetsByIp.attempt(ip);
  if (wait > 0) throw new DomainError(429, `Too many password reset requests from this network. Please try again in ${minutesText(wait)}.`);
  return { message: RESET_REQUESTED, done: afterAnswer('password reset link', () => queueResetLink(deps, input)) };
}

function queueResetLink(deps: ResetDeps, input: PasswordResetRequest): void {
  const { db, clock, limits } = deps;
  const user = accountFor(db, input);
  const to = user && user.deletedAt === null ? confirmedEmailOf(db, user.id) : null;
  if (!user || !to) return;
  // A flood of links to one mailbox stops quietly: the answer must not tell that the account exists.
  if (limits.passwordResetsByAccount.attempt(String(user.id)) > 0) return;
  const token = newAccountToken();
  const now = clock.now();
  db.transaction((tx) => {
    // Only the newest link works.
    tx.update(accountTokens)
      .set({ usedAt: now })
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, 'password_reset'), isNull(accountTokens.usedAt)))
      .run();
    const row = tx
      .insert(accountTokens)
      .values({ userId: user.id, purpose: 'password_reset', tokenHash: tokenHash(token), expiresAt: now + RESET_TOKEN_TTL_MS, createdAt: now })
      .returning({ id: accountTokens.id })
      .get();
    queueEmail(tx, clock, {
      userId: user.id,
      to,
      kind: 'password_reset',
      eventKey: `password-reset:${row.id}`,
      linkExpiresAt: now + RESET_TOKEN_TTL_MS,
      subject: 'Reset your password',
      body: composeEmail({
        heading: 'Reset your password',
        paragraphs: [
          `Someone (we hope you) asked to reset the password of the account ${user.username}.`,
          'The link below works once, for 30 minutes. If you did not ask for it, ignore this message: your password stays as it is.',
        ],
        action: { label: 'Choose a new password', path: `/auth/reset?token=${token}` },
        footnote: 'For your safety, every device signed in to this account is signed out when the password is reset.',
      }),
    });
  });
}

/** POST /api/password-reset/confirm: sets the password once per link and signs the account out everywhere. */
export async function confirmPasswordReset(
  deps: { db: Db; clock: Clock; passwords: PasswordHasher },
  input: { token: string; password: string },
): Promise<{ userId: number }> {
  const { db, clock } = deps;
  const hash = tokenHash(input.token);
  const now = clock.now();
  const found = db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hash), eq(accountTokens.purpose, 'password_reset'), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
    .get();
  if (!found) throw new DomainError(400, RESET_LINK_INVALID, { token: RESET_LINK_INVALID });
  const passwordHash = await deps.passwords.hash(input.password);
  const done = db.transaction((tx) => {
    // Single use, also when the same link is sent twice at once.
    const claimed = tx
      .update(accountTokens)
      .set({ usedAt: clock.now() })
      .where(and(eq(accountTokens.id, found.id), isNull(accountTokens.usedAt)))
      .returning({ id: accountTokens.id })
      .get();
    if (!claimed) return false;
    tx.update(users).set({ passwordHash }).where(eq(users.id, found.userId)).run();
    tx.delete(sessions).where(eq(sessions.userId, found.userId)).run();
    endAccountLinks(tx, found.userId, clock.now());
    return true;
  });
  if (!done) throw new DomainError(400, RESET_LINK_INVALID, { token: RESET_LINK_INVALID });
  return { userId: found.userId };
}

/** POST /api/user/password: the current password is required; every other session ends, this one stays. */
export async function changePassword(
  deps: { db: Db; clock: Clock; limits: AccountLimits; passwords: PasswordHasher },
  userId: number,
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const { db, clock, passwords } = deps;
  const wrong = new DomainError(400, 'Your current password is not right.', { currentPassword: 'Your current password is not right.' });
  await checkCurrentPassword(deps, userId, input.currentPassword, wrong);
  const passwordHash = await passwords.hash(input.newPassword);
  db.transaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    tx.delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
      .run();
    endAccountLinks(tx, userId, clock.now());
  });
}
