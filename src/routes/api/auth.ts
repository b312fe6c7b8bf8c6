import { Hono } from 'hono';
import { logIn, publicUser, register } from '../../domain/accounts.ts';
import { clientIp, type AppEnv } from '../../http/context.ts';
import { readJson } from '../../http/json.ts';
import { endSession, startSession } from '../../http/session-cookie.ts';

/** Spec section 7: register, login, logout and the current user. */
export const authApi = new Hono<AppEnv>()
  .post('/register', async (c) => {
    const { db, clock, limits } = c.var.deps;
    const user = await register(db, clock, limits, await readJson(c), clientIp(c));
    startSession(c, user.id);
    return c.json(publicUser(user), 201);
  })
  .post('/login', async (c) => {
    const { db, limits } = c.var.deps;
    const user = await logIn(db, limits, await readJson(c), clientIp(c));
    startSession(c, user.id);
    return c.json(publicUser(user));
  })
  .post('/logout', (c) => {
    endSession(c);
    return c.json({ message: 'Logged out' });
  })
  .get('/user', (c) => {
    const user = c.var.user;
    if (!user) return c.json({ message: 'Not logged in' }, 401);
    return c.json(publicUser(user));
  });
