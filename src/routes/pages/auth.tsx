import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { logIn, register } from '../../domain/accounts/accounts.ts';
import { DomainError } from '../../domain/errors.ts';
import { loginSchema, registerFormSchema } from '../../shared/schemas/auth.ts';
import { fieldErrorsOf } from '../../shared/schemas/field-errors.ts';
import type { AuthTab } from '../../shared/schemas/auth.ts';
import { safeNextPath, type AppContext, type AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { setFlash } from '../../http/flash.ts';
import { renderPage } from '../../http/render.tsx';
import type { PageStatus } from '../../http/shared-page.ts';
import type { ToastInput } from '../../shared/toast.ts';
import { endSession, startSession } from '../../http/session-cookie.ts';
import { carryOutCartIntent } from '../../http/cart-intent.ts';

function AuthPage({ tab, next, errors, username }: { tab: AuthTab; next: string; errors?: Record<string, string>; username?: string }) {
  return (
    <div className="mx-auto max-w-md pt-6">
      <div className="rounded-2xl bg-white p-6 sm:p-8 shadow-sm border border-slate-200">
        <h1 className="m-0 text-2xl font-extrabold text-ink">Your account</h1>
        <p className="mt-2 mb-6 text-sm text-slate-600">Sign in to play for $1, check out fast and follow your games.</p>
        <Island name="AuthForm" props={{ tab, next, errors, username }} />
      </div>
    </div>
  );
}

function tabOf(value: string | undefined): AuthTab {
  return value === 'register' ? 'register' : 'login';
}

function showAuth<E extends AppEnv>(
  c: AppContext<E>,
  tab: AuthTab,
  failure?: { status: PageStatus; toast: ToastInput; errors?: Record<string, string>; username?: string },
) {
  const next = safeNextPath(c.req.query('next'));
  return renderPage(
    c,
    {
      title: tab === 'login' ? 'Login' : 'Register',
      path: `/auth${tab === 'register' ? '?tab=register' : ''}`,
      description: 'Log in or create an account to play and shop at the Competitive Shopping Association.',
    },
    <AuthPage tab={tab} next={next} errors={failure?.errors} username={failure?.username} />,
    { status: failure?.status, toast: failure?.toast },
  );
}

async function formFields<E extends AppEnv>(c: AppContext<E>): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}));
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

/**
 * /auth and its form posts, for browsers without JavaScript; the AuthForm island calls the
 * JSON API instead. Both go through the same domain functions.
 */
export const authPages = new Hono<AppEnv>()
  .get('/auth', (c) => {
    if (c.get('user')) return c.redirect('/', 302);
    return showAuth(c, tabOf(c.req.query('tab')));
  })
  .post('/auth/:tab{login|register}', async (c) => {
    const tab = tabOf(c.req.param('tab'));
    const next = safeNextPath(c.req.query('next'));
    const form = await formFields(c);
    // The same named schemas as POST /api/login and /api/register (plus the confirmation field).
    const checked = tab === 'login' ? loginSchema.safeParse(form) : registerFormSchema.safeParse(form);
    if (!checked.success) {
      const errors = fieldErrorsOf(checked.error);
      const toast: ToastInput = {
        title: tab === 'login' ? 'Login failed' : 'Registration failed',
        description: Object.values(errors)[0],
        variant: 'destructive',
      };
      return showAuth(c, tab, { status: 400, toast, errors, username: form.username });
    }
    try {
      const user = tab === 'login' ? await logIn(c.env.deps, checked.data, clientIp(c)) : await register(c.env.deps, checked.data, clientIp(c));
      startSession(c, user.id);
      const intent = carryOutCartIntent(c, user.id);
      setFlash(
        c,
        intent?.toast ??
          (tab === 'login'
            ? { title: 'Login successful', description: `Welcome back, ${user.username}!` }
            : { title: 'Registration successful', description: `Welcome to the Competitive Shopping Association, ${user.username}!` }),
      );
      return c.redirect(intent?.next ?? next, 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const toast: ToastInput = { title: tab === 'login' ? 'Login failed' : 'Registration failed', description: error.message, variant: 'destructive' };
      const status = error.status === 401 || error.status === 409 || error.status === 429 ? error.status : 400;
      return showAuth(c, tab, { status, toast, errors: error.fields, username: form.username });
    }
  })
  .post('/logout', (c) => {
    endSession(c);
    setFlash(c, { title: 'Logged out', description: 'You have been successfully logged out.' });
    return c.redirect('/', 303);
  });
