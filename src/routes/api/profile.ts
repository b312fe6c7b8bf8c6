import { Hono } from 'hono';
import { findProfile, connectApplePay, profileStatus, profileView, updateProfile } from '../../domain/accounts/profile.ts';
import { carryOutCartIntent } from '../../http/cart-intent.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { jsonBody } from '../../http/request.ts';
import { profilePatchBody } from '../../shared/schemas/profile.ts';

/** /api/user/profile and /api/user/profile-status (spec section 7): the signed-in shopper's details, card and completeness. */
export const profileApi = new Hono<AppEnv>()
  .use('/user/profile', requireUserApi)
  .use('/user/profile/*', requireUserApi)
  .use('/user/profile-status', requireUserApi)
  .get('/user/profile', (c) => c.json(profileView(findProfile(c.env.deps.db, c.get('user').id))))
  .patch('/user/profile', jsonBody(profilePatchBody), idempotent, async (c) => {
    const profile = await updateProfile(c.env.deps, c.get('user').id, c.req.valid('json'), clientIp(c));
    // A visitor's Add to Cart waiting for this profile to be complete goes in now.
    const intent = carryOutCartIntent(c, c.get('user').id, { quietWhileIncomplete: true });
    return c.json(intent ? { ...profile, notice: intent.toast } : profile);
  })
  .post('/user/profile/apple-pay', (c) => c.json(connectApplePay(c.env.deps.db, c.env.deps.clock, c.get('user').id)))
  .get('/user/profile-status', (c) => c.json(profileStatus(c.env.deps.db, c.get('user').id)));
