import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { users, type User } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { RateLimiter, minutesText } from '../operations/rate-limit.ts';
import type { LoginInput, RegisterInput } from '../../shared/schemas/auth.ts';
import type { PasswordHasher } from './passwords.ts';
import { loginKey, offerUnlockAfterFailures } from './sign-in-unlock.ts';

/** What the browser may know about a user (spec section 3: the client reads id, username, isAdmin). */
export interface PublicUser {
  id: number;
  username: string;
  isAdmin: boolean;
}

export function publicUser(user: User): PublicUser {
  return { id: user.id, username: user.username, isAdmin: user.isAdmin };
}

export interface AccountLimits {
  /** Failed sign-ins from one address over every username: the wide net for password spraying. */
  failedLoginsByIp: RateLimiter;
  /** Failed sign-ins for one username from one address (loginKey): only an address that failed is paused. */
  failedLoginsByUsernameAndIp: RateLimiter;
  /** Failed sign-ins for one username from anywhere: never refuses anyone; past it the owner is e-mailed an unlock link. */
  failedLoginsByUsername: RateLimiter;
  registrationsByIp: RateLimiter;
  /** Wrong current passwords typed in a signed-in session (e-mail and password changes), per user: a stolen session cannot guess on. */
  wrongCurrentPasswordsByUser: RateLimiter;
  /** Wrong admin PINs per admin account, across all of its sessions. */
  pinFailuresByUser: RateLimiter;
  /** Public forms anyone may send (business applications, coach sign-ups), per IP. */
  publicFormsByIp: RateLimiter;
  /** 'Forgot password?' requests per network, and reset e-mails per account (silently). */
  passwordResetsByIp: RateLimiter;
  passwordResetsByAccount: RateLimiter;
}

const MINUTE = 60_000;
/** Wrong passwords one address may send for one username in 15 minutes; then it waits (429). */
export const LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS = 10;
/** Wrong passwords one address may send in 15 minutes over all usernames. */
export const LOGIN_FAILURES_PER_ADDRESS = 30;
/** Wrong passwords for one username, from anywhere, in 15 minutes before its owner is e-mailed. */
export const LOGIN_FAILURES_BEFORE_UNLOCK_EMAIL = 10;

/** The limits, counted in the database so every process shares them. */
/** What signing up and signing in need. */
export interface AccountDeps {
  db: Db;
  clock: Clock;
  limits: AccountLimits;
  passwords: PasswordHasher;
}

export function createAccountLimits(db: Db, clock: Clock, enabled: boolean): AccountLimits {
  return {
    failedLoginsByIp: new RateLimiter(db, 'login-ip', LOGIN_FAILURES_PER_ADDRESS, 15 * MINUTE, clock, enabled),
    failedLoginsByUsernameAndIp: new RateLimiter(db, 'login-username-ip', LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS, 15 * MINUTE, clock, enabled),
    failedLoginsByUsername: new RateLimiter(db, 'login-username', LOGIN_FAILURES_BEFORE_UNLOCK_EMAIL, 15 * MINUTE, clock, enabled),
    registrationsByIp: new RateLimiter(db, 'register-ip', 30, 60 * MINUTE, clock, enabled),
    wrongCurrentPasswordsByUser: new RateLimiter(db, 'current-password-user', 10, 15 * MINUTE, clock, true),
    // Always on: RATE_LIMIT=off is for load tests of sign-in, never for the admin PIN.
    // As many as one session gets: logging in again gives no fresh tries.
    pinFailuresByUser: new RateLimiter(db, 'pin-user', 5, 15 * MINUTE, clock, true),
    publicFormsByIp: new RateLimiter(db, 'public-form-ip', 20, 60 * MINUTE, clock, enabled),
    passwordResetsByIp: new RateLimiter(db, 'password-reset-ip', 10, 60 * MINUTE, clock, enabled),
    passwordResetsByAccount: new RateLimiter(db, 'password-reset-user', 3, 60 * MINUTE, clock, enabled),
  };
}

export function findUserByUsername(db: Queryable, username: string): User | undefined {
  return db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .get();
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
    return db.insert(users).values({ username, passwordHash, createdAt: clock.now() }).returning().get();
  } catch (error) {
    // Two registrations raced for the same name; the unique index decided.
    if (String(error).includes('UNIQUE')) throw usernameTaken();
    throw error;
  }
}

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
