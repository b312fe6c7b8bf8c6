import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client.ts';
import { users, type User } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import { RateLimiter, minutesText } from './rate-limit.ts';
import type { LoginInput, RegisterInput } from '../shared/schemas/auth.ts';
import type { PasswordHasher } from './passwords.ts';

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
  failedLoginsByIp: RateLimiter;
  failedLoginsByUsername: RateLimiter;
  registrationsByIp: RateLimiter;
  /** Wrong admin PINs per admin account, across all of its sessions. */
  pinFailuresByUser: RateLimiter;
  /** Public forms anyone may send (business applications, coach sign-ups), per IP. */
  publicFormsByIp: RateLimiter;
  /** 'Forgot password?' requests per network, and reset e-mails per account (silently). */
  passwordResetsByIp: RateLimiter;
  passwordResetsByAccount: RateLimiter;
}

const MINUTE = 60_000;

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
    failedLoginsByIp: new RateLimiter(db, 'login-ip', 10, 15 * MINUTE, clock, enabled),
    failedLoginsByUsername: new RateLimiter(db, 'login-username', 10, 15 * MINUTE, clock, enabled),
    registrationsByIp: new RateLimiter(db, 'register-ip', 30, 60 * MINUTE, clock, enabled),
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
 * Checks a password. Each attempt is counted as a failure before the (slow) check and taken
 * back when it succeeds, in one synchronous step with the limit check: thirty attempts sent at
 * once are cut at the limit before any of them is verified.
 */
export async function logIn(deps: Omit<AccountDeps, 'clock'>, input: LoginInput, ip: string): Promise<User> {
  const { db, limits, passwords } = deps;
  const { username, password } = input;
  const usernameKey = username.toLowerCase();
  // One IMMEDIATE transaction: attempts sent at once to two processes are counted one after another.
  const wait = db.transaction(() => {
    const wait = Math.max(limits.failedLoginsByIp.retryAfter(ip), limits.failedLoginsByUsername.retryAfter(usernameKey));
    if (wait > 0) return wait;
    limits.failedLoginsByIp.record(ip);
    limits.failedLoginsByUsername.record(usernameKey);
    return 0;
  });
  if (wait > 0) {
    throw new DomainError(429, `Too many failed login attempts. Please try again in ${minutesText(wait)}.`);
  }
  const user = findUserByUsername(db, username);
  const valid = await passwords.verify(password, user?.passwordHash);
  if (!user || !valid) throw new DomainError(401, 'Invalid username or password');
  limits.failedLoginsByIp.forgetLatest(ip);
  limits.failedLoginsByUsername.reset(usernameKey);
  return user;
}
