import { Hono } from 'hono';
import { DomainError } from '../../domain/errors.ts';
import { confirmEmail, EMAIL_LINK_INVALID, emailLinkNeeds } from '../../domain/accounts/email-change.ts';
import type { AppEnv } from '../../http/context.ts';
import { setFlash } from '../../http/flash.ts';
import { renderPage } from '../../http/render.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';

/*
 * The page of an e-mail confirmation link: a button, because mail scanners open links and a GET
 * must not change an account; for an account's first address, the account's password too (no
 * password was asked when it was typed). security.ts keeps the link from caches and other sites.
 */

const button = 'h-11 cursor-pointer rounded-lg border-0 bg-ink px-5 text-sm font-bold text-white';
const meta = { title: 'Confirm your e-mail', path: '/auth/confirm-email', noindex: true };

function ConfirmEmailPage({ token, needs, errors = {} }: { token: string; needs: 'button' | 'password' | 'invalid'; errors?: Record<string, string> }) {
  const dead = needs === 'invalid' || errors.token;
  return (
    <div className="mx-auto grid max-w-md gap-4 pt-4">
      <h1 className="m-0 text-2xl font-extrabold">Confirm your e-mail</h1>
      {dead ? (
        <p role="alert" className="m-0 rounded-xl bg-red-50 p-4 text-sm text-red-800">
          {errors.token ?? EMAIL_LINK_INVALID}
        </p>
      ) : (
        <p className="m-0 text-slate-700">
          {needs === 'password'
            ? 'Receipts, refunds and password resets will go to the address this link was sent to. Enter the password of your account to confirm it is yours.'
            : 'Receipts, refunds and password resets will go to the address this link was sent to.'}
        </p>
      )}
      {!dead && (
        <form method="post" action="/auth/confirm-email" className="grid gap-4" noValidate>
          <input type="hidden" name="token" value={token} />
          {needs === 'password' && (
            <TextField
              id="confirm-email-password"
              name="password"
              type="password"
              label="Password"
              autoComplete="current-password"
              required
              error={errors.password}
            />
          )}
          <button type="submit" className={button}>
            Confirm e-mail
          </button>
        </form>
      )}
    </div>
  );
}

export const confirmEmailPages = new Hono<AppEnv>()
  .get('/auth/confirm-email', (c) => {
    const token = (c.req.query('token') ?? '').slice(0, 200);
    return renderPage(c, meta, <ConfirmEmailPage token={token} needs={emailLinkNeeds(c.env.deps.db, c.env.deps.clock, token)} />);
  })
  .post('/auth/confirm-email', async (c) => {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const token = typeof body.token === 'string' ? body.token.slice(0, 200) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 128) : '';
    try {
      const { email, first } = await confirmEmail(c.env.deps, { token, password });
      setFlash(c, { title: first ? 'E-mail confirmed' : 'E-mail changed', description: `Your messages now go to ${email}.` });
      return c.redirect(c.get('user') ? '/profile' : '/auth', 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A wrong or missing password keeps the link on the page for another try; a dead link does not.
      const needs = error.fields?.password ? 'password' : 'invalid';
      return renderPage(
        c,
        meta,
        <ConfirmEmailPage token={needs === 'password' ? token : ''} needs={needs} errors={error.fields ?? { token: error.message }} />,
        {
          status: error.status === 429 ? 429 : 400,
        },
      );
    }
  });
