import { Hono } from 'hono';
import { verifyAdminPin } from '../../domain/accounts/admin-pin.ts';
import type { AppEnv } from '../../http/context.ts';
import { jsonBody } from '../../http/request.ts';
import { adminPinBody } from '../../shared/schemas/admin.ts';

/** POST /api/admin/pin: unlocks admin actions for this session. */
export const adminApi = new Hono<AppEnv>().post('/admin/pin', jsonBody(adminPinBody), (c) => {
  const user = c.get('user');
  const session = c.get('session');
  if (!user || !session) return c.json({ message: 'Please log in to continue.' }, 401);
  if (!user.isAdmin) return c.json({ message: 'Admin access required.' }, 403);
  const { db, clock, adminPin, limits } = c.env.deps;
  verifyAdminPin(db, clock, session.id, limits.pinFailuresByUser, String(user.id), c.req.valid('json').pin, adminPin);
  return c.json({ message: 'Access granted' });
});
