import { Hono } from 'hono';
import { logIn, publicUser, register } from '../../domain/accounts/accounts.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { jsonBody } from '../../http/request.ts';
import { loginSchema, registerSchema, unlockSchema } from '../../shared/schemas/auth.ts';
import { unlockSignIn } from '../../domain/accounts/sign-in-unlock.ts';
import { endSession, startSession } from '../../http/session-cookie.ts';
import { carryOutCartIntent, type IntentOutcome } from '../../http/cart-intent.ts';
import { signOutEverywhere } from '../../domain/accounts/account-recovery.ts';

/** A visitor's Add to Cart carried out at sign-in: the toast to show and where to go. */
function withIntent<T extends object>(body: T, intent: IntentOutcome | null) {
  return intent ? { ...body, notice: intent.toast, ...(intent.next ? { next: intent.next } : {}) } : body;
}

/** Spec section 7: register, login, logout and the current user. */
export const authApi = new Hono<AppEnv>()
  .post('/register', jsonBody(registerSchema), async (c) => {
    const user = await register(c.env.deps, c.req.valid('json'), clientIp(c));
    startSession(c, user.id);
    return c.json(withIntent(publicUser(user), carryOutCartIntent(c, user.id)), 201);
  })
  .post('/login', jsonBody(loginSchema), async (c) => {
    const user = await logIn(c.env.deps, c.req.valid('json'), clientIp(c));
    startSession(c, user.id);
    return c.json(withIntent(publicUser(user), carryOutCartIntent(c, user.id)));
  })
  // The unlock link e-mailed after repeated wrong passwords (sign-in-unlock.ts).
  .post('/login/unlock', jsonBody(unlockSchema), (c) => {
    const { username } = unlockSignIn(c.env.deps, c.req.valid('json').token);
    return c.json({ message: `You can log in to ${username} again.` });
  })
  .post('/logout', (c) => {
    endSession(c);
    return c.json({ message: 'Logged out' });
  })
  .post('/logout/everywhere', (c) => {
    const user = c.get('user');
    if (!user) return c.json({ message: 'Please log in to continue.' }, 401);
    const ended = signOutEverywhere(c.env.deps.db, c.env.deps.clock, user.id);
    endSession(c);
    return c.json({ message: 'Signed out everywhere', sessionsEnded: ended });
  })
  .get('/user', (c) => {
    const user = c.get('user');
    if (!user) return c.json({ message: 'Not logged in' }, 401);
    return c.json(publicUser(user));
  });
