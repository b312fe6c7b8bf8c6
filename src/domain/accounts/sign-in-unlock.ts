import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountTokens, users, type User } from '../../db/schema.ts';
import { newAccountToken, tokenHash } from './account-tokens.ts';
import type { AccountLimits } from './account-limits.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { composeEmail } from '../mail/compose.ts';
import { confirmedEmailOf, queueEmail } from '../mail/outbox.ts';

/*
 * Wrong passwords pause only the address that sent them (issue 25: a count per username let
 * anyone keep the admin out). The owner learns of a run of failures from an e-mail with a
 * single-use unlock link: one per run (no new link while one is open), sent to the confirmed
 * address only, kept as a hash; opening it lifts the pause of every address for that username.
 */

export const UNLOCK_TOKEN_TTL_MS = 60 * 60 * 1000;
export { UNLOCK_LINK_INVALID } from '../../shared/schemas/auth.ts';
import { UNLOCK_LINK_INVALID } from '../../shared/schemas/auth.ts';

/** The limiter key of one username at one address; the username comes first so an unlock can clear all its addresses. */
export function loginKey(username: string, ip: string): string {
  return `${loginKeyPrefix(username)}${JSON.stringify(ip)}]`;
}

export function loginKeyPrefix(username: string): string {
  return `[${JSON.stringify(username.toLowerCase())},`;
}

/** After a wrong password for an existing account: past the limit, its owner is e-mailed one unlock link. */
export function offerUnlockAfterFailures(deps: { db: Db; clock: Clock; limits: AccountLimits }, user: User): void {
  const { db, clock, limits } = deps;
  if (limits.failedLoginsByUsername.retryAfter(user.username.toLowerCase()) === 0) return;
  const to = confirmedEmailOf(db, user.id);
  if (!to) return;
  db.transaction((tx) => {
    const now = clock.now();
    const open = tx
      .select({ id: accountTokens.id })
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, 'login_unlock'), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
      .get();
    if (open) return;
    const token = newAccountToken();
    const row = tx
      .insert(accountTokens)
      .values({ userId: user.id, purpose: 'login_unlock', tokenHash: tokenHash(token), expiresAt: now + UNLOCK_TOKEN_TTL_MS, createdAt: now })
      .returning({ id: accountTokens.id })
      .get();
    queueEmail(tx, clock, {
      userId: user.id,
      to,
      kind: 'account_unlock',
      eventKey: `account-unlock:${row.id}`,
      linkExpiresAt: now + UNLOCK_TOKEN_TTL_MS,
      subject: 'Wrong passwords were tried on your account',
      body: composeEmail({
        heading: 'Wrong passwords were tried on your account',
        paragraphs: [
          `Someone tried to log in to the account ${user.username} with a wrong password ${limits.failedLoginsByUsername.limit} times in the last 15 minutes.`,
          'The devices those tries came from must wait 15 minutes; you can still log in from your own devices as usual.',
          'If the tries were yours and you are kept waiting, the link below lets you try again at once. It works once, for an hour. If they were not yours, your password held; choosing a new one that you use nowhere else keeps it that way.',
        ],
        action: { label: 'Let me log in again', path: `/auth/unlock?token=${token}` },
      }),
    });
  });
}

/** Opens an unlock link once: every address waiting for that username may try again. */
export function unlockSignIn(deps: { db: Db; clock: Clock; limits: AccountLimits }, token: string): { username: string } {
  const { db, clock, limits } = deps;
  const now = clock.now();
  const claimed = db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash(token)),
        eq(accountTokens.purpose, 'login_unlock'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ userId: accountTokens.userId })
    .get();
  const user = claimed ? db.select().from(users).where(eq(users.id, claimed.userId)).get() : undefined;
  if (!user || user.deletedAt !== null) throw new DomainError(400, UNLOCK_LINK_INVALID, { token: UNLOCK_LINK_INVALID });
  db.transaction(() => {
    limits.failedLoginsByUsernameAndIp.resetKeysStartingWith(loginKeyPrefix(user.username));
    limits.failedLoginsByUsername.reset(user.username.toLowerCase());
  });
  return { username: user.username };
}
