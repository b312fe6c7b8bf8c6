import type { Db } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import { RateLimiter } from '../operations/rate-limit.ts';

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
