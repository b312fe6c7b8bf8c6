import { Hono } from 'hono';
import { BackToLogin } from '../../components/BackToLogin.tsx';
import { DomainError } from '../../domain/errors.ts';
import { UNLOCK_LINK_INVALID, unlockSignIn } from '../../domain/accounts/sign-in-unlock.ts';
import type { AppEnv } from '../../http/context.ts';
import { setFlash } from '../../http/flash.ts';
import { renderPage } from '../../http/render.tsx';

/*
 * The page of the unlock link e-mailed after repeated wrong passwords: a button, because mail
 * scanners open links and a GET must not change an account. Same single-use rule as the API's
 * POST /api/login/unlock.
 */

const button = 'h-11 cursor-pointer rounded-lg border-0 bg-ink px-5 text-sm font-bold text-white';

function UnlockPage({ token, error }: { token: string; error?: string }) {
  return (
    <div className="mx-auto grid max-w-md gap-4 pt-4">
      <h1 className="m-0 text-2xl font-extrabold">Log in again</h1>
      {error ? (
        <p role="alert" className="m-0 rounded-xl bg-red-50 p-4 text-sm text-red-800">
          {error}
        </p>
      ) : (
        <p className="m-0 text-slate-700">
          Devices that tried a wrong password on your account were asked to wait. Press the button to let them try again now.
        </p>
      )}
      {!error && (
        <form method="post" action="/auth/unlock" className="grid gap-4">
          <input type="hidden" name="token" value={token} />
          <button type="submit" className={button}>
            Let me log in again
          </button>
        </form>
      )}
      <BackToLogin />
    </div>
  );
}

const meta = { title: 'Log in again', path: '/auth/unlock', noindex: true };

export const signInUnlockPages = new Hono<AppEnv>()
  .get('/auth/unlock', (c) => {
    // The link is a key: security.ts keeps it from caches and other sites ('same-origin', no-store).
    const token = c.req.query('token') ?? '';
    return renderPage(c, meta, <UnlockPage token={token} error={token ? undefined : UNLOCK_LINK_INVALID} />, { backHref: '/auth' });
  })
  .post('/auth/unlock', async (c) => {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const token = typeof body.token === 'string' ? body.token.slice(0, 200) : '';
    try {
      const { username } = unlockSignIn(c.env.deps, token);
      setFlash(c, { title: 'You can log in again', description: `Log in to ${username} with your password.` });
      return c.redirect('/auth', 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return renderPage(c, meta, <UnlockPage token="" error={error.message} />, { status: 400, backHref: '/auth' });
    }
  });
