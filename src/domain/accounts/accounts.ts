import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { users, type User } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { minutesText } from '../operations/rate-limit.ts';
import type { LoginInput, RegisterInput } from '../../shared/schemas/auth.ts';
import type { PasswordHasher } from './passwords.ts';
import { loginKey, offerUnlockAfterFailures } from './sign-in-unlock.ts';
import type { AccountLimits } from './account-limits.ts';

/** What the browser may know about a user (spec section 3: the client reads id, username, isAdmin). */
export interface PublicUser {
  id: number;
  username: string;
  isAdmin: boolean;
}

export function publicUser(user: User): PublicUser {
  return { id: user.id, username: user.username, isAdmin: user.isAdmin };
}

/** What signing up and signing in need. */
export interface AccountDeps {
  db: Db;
  clock: Clock;
  limits: AccountLimits;
  passwords: PasswordHasher;
}

/** Usernames by account id, for leaderboards, notifications and the (masked) names of a team. */
export function usernamesOf(db: Queryable, ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids)).all();
  return new Map(rows.map((user) => [user.id, user.username]));
}

/* Every sign-in and registration looks the name up: built once (db/prepared.ts). Compared in lower case, as the unique index is. */
const userByLowerName = preparedOnce((db) =>
  db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, sql.placeholder('name')))
    .prepare(),
);

export function findUserByUsername(db: Queryable, username: string): User | undefined {
  return userByLowerName(db).get({ name: username.toLowerCase() });
}

export async function register(deps: AccountDeps, input: RegisterInput, ip: string): Promise<User> {
  const { db, clock, limits, passwords } = deps;
  const wait = limits.registrationsByIp.attempt(ip);
  if (wait > 0) {
    throw new DomainError(429, `Too many registrations from this network. Please try again in ${minutesText(wait)}.`);
  }
  const { username, password } = input;
  if (findUserByUsername(db, username)) throw usernameTaken();
  const passwordHash = await passwords.hash(password);
  try {
    return insertUser(db).get({ username, passwordHash, createdAt: clock.now() })!;
  } catch (error) {
    // Two registrations raced for the same name; the unique index decided.
    if (String(error).includes('UNIQUE')) throw usernameTaken();
    throw error;
  }
}

/* Nearly every test and every sign-up writes one: built once (db/prepared.ts). */
const insertUser = preparedOnce((db) =>
  db
    .insert(users)
    .values({ username: sql.placeholder('username'), passwordHash: sql.placeholder('passwordHash'), createdAt: sql.placeholder('createdAt') })
    .returning()
    .prepare(),
);

function usernameTaken(): DomainError {
  return new DomainError(409, 'That username is already taken. Please choose another.', {
    username: 'That username is already taken. Please choose another.',
  });
}

/**
 * Checks a password. An attempt is counted as a failure of its address and of the username at
 * that address before the (slow) check, and taken back when it succeeds, in one synchronous step
 * with the limit check: thirty attempts sent at once are cut at the limit before any is
 * verified. Only addresses that failed wait: wrong passwords from elsewhere never keep the
 * owner out (issue 25); past a number of failures from anywhere the owner gets an unlock link.
 */
export async function logIn(deps: AccountDeps, input: LoginInput, ip: string): Promise<User> {
  const { db, limits, passwords } = deps;
  const { username, password } = input;
  const pairKey = loginKey(username, ip);
  // One IMMEDIATE transaction: attempts sent at once to two processes are counted one after another.
  const wait = db.transaction(() => {
    const wait = Math.max(limits.failedLoginsByIp.retryAfter(ip), limits.failedLoginsByUsernameAndIp.retryAfter(pairKey));
    if (wait > 0) return wait;
    limits.failedLoginsByIp.record(ip);
    limits.failedLoginsByUsernameAndIp.record(pairKey);
    return 0;
  });
  if (wait > 0) {
    throw new DomainError(429, `Too many failed login attempts. Please try again in ${minutesText(wait)}.`);
  }
  const user = findUserByUsername(db, username);
  const valid = await passwords.verify(password, user?.passwordHash);
  if (!user || !valid) {
    limits.failedLoginsByUsername.record(username.toLowerCase());
    if (user) offerUnlockAfterFailures(deps, user);
    throw new DomainError(401, 'Invalid username or password');
  }
  limits.failedLoginsByIp.forgetLatest(ip);
  limits.failedLoginsByUsernameAndIp.reset(pairKey);
  return user;
}

/**
 * The current password typed in a signed-in session, for a change that gives the account away
 * (its e-mail, its password). Counted before the check like a sign-in and taken back when
 * right, so a stolen session cannot use the form to guess the password.
 */
export async function checkCurrentPassword(
  deps: { db: Db; limits: AccountLimits; passwords: PasswordHasher },
  userId: number,
  typed: string,
  wrong: DomainError,
): Promise<void> {
  const key = String(userId);
  const wait = deps.limits.wrongCurrentPasswordsByUser.attempt(key);
  if (wait > 0) {
    const message = `Too many wrong passwords. Please try again in ${minutesText(wait)}.`;
    throw new DomainError(429, message, wrong.fields ? Object.fromEntries(Object.keys(wrong.fields).map((field) => [field, message])) : undefined);
  }
  const user = deps.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  if (!user || !(await deps.passwords.verify(typed, user.passwordHash))) throw wrong;
  deps.limits.wrongCurrentPasswordsByUser.forgetLatest(key);
}
