import { Hono } from 'hono';
import { changePassword, confirmPasswordReset, requestPasswordReset } from '../../domain/accounts/account-recovery.ts';
import { exportAccountData } from '../../flows/export-account.ts';
import { closeAccount } from '../../flows/end-account.ts';
import { confirmEmail } from '../../domain/accounts/email-change.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { requireUserApi } from '../../http/guards.ts';
import { jsonBody } from '../../http/request.ts';
import { endSession } from '../../http/session-cookie.ts';
import {
  emailConfirmSchema,
  accountDeleteSchema,
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
} from '../../shared/schemas/account.ts';

/**
 * Account recovery (POST /api/password-reset, /api/password-reset/confirm) and the signed-in
 * account's own settings: password, data export and deletion (the California rights).
 */
export const accountApi = new Hono<AppEnv>()
  .post('/password-reset', jsonBody(passwordResetRequestSchema), (c) => {
    const { db, clock, limits } = c.env.deps;
    return c.json({ message: requestPasswordReset({ db, clock, limits }, c.req.valid('json'), clientIp(c)).message });
  })
  .post('/password-reset/confirm', jsonBody(passwordResetConfirmSchema), async (c) => {
    await confirmPasswordReset(c.env.deps, c.req.valid('json'));
    return c.json({ message: 'Your password has been changed. Please log in with the new one.' });
  })
  .post('/user/email/confirm', jsonBody(emailConfirmSchema), async (c) => {
    const { email } = await confirmEmail(c.env.deps, c.req.valid('json'));
    return c.json({ message: `Your messages now go to ${email}.`, email });
  })
  .use('/user/password', requireUserApi)
  .use('/user/export', requireUserApi)
  .use('/user/delete', requireUserApi)
  .post('/user/password', jsonBody(passwordChangeSchema), async (c) => {
    await changePassword(c.env.deps, c.get('user').id, c.get('session').id, c.req.valid('json'));
    return c.json({ message: 'Your password has been changed. Other devices were signed out.' });
  })
  .get('/user/export', (c) => {
    const data = exportAccountData(c.env.deps.db, c.get('user').id, c.env.deps.clock.now());
    c.header('Content-Disposition', `attachment; filename="my-data-${c.get('user').username}.json"`);
    c.header('Cache-Control', 'no-store');
    return c.json(data);
  })
  .post('/user/delete', jsonBody(accountDeleteSchema), async (c) => {
    await closeAccount(c.env.deps, c.get('user').id, c.req.valid('json').password);
    endSession(c);
    return c.json({ message: 'Your account has been deleted.' });
  });
