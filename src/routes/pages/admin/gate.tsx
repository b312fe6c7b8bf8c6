import type { MiddlewareHandler } from 'hono';
import { sessionPassedPin, touchPinUnlock } from '../../../domain/accounts/admin-pin.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { currentPath, renderPage } from '../../../http/render.tsx';
import type { PageStatus } from '../../../http/shared-page.ts';
import type { ToastInput } from '../../../shared/toast.ts';
import type { SignedInEnv } from '../../../http/guards.ts';

function AccessDenied() {
  return (
    <div className="mx-auto max-w-md pt-12 text-center">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="m-0 text-2xl font-extrabold">Access Denied</h1>
        <p className="m-0 mt-3 font-semibold">Admin Access Required</p>
        <p className="mt-2 mb-6 text-slate-600">You don't have permission to access this page.</p>
        <a href="/" className="inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
          Go to Home
        </a>
      </div>
    </div>
  );
}

function PinScreen({ next, error }: { next: string; error?: string }) {
  return (
    <div className="mx-auto max-w-sm pt-12">
      <form method="post" action="/admin/pin" className="rounded-2xl border border-slate-200 bg-white p-6 sm:p-8 shadow-sm">
        <h1 className="m-0 text-2xl font-extrabold">Admin Authentication</h1>
        <p className="mt-2 mb-6 text-sm text-slate-600">Enter the admin PIN to manage the store.</p>
        <input type="hidden" name="next" value={next} />
        <label htmlFor="admin-pin" className="text-sm font-medium">
          Admin PIN
        </label>
        <input
          id="admin-pin"
          name="pin"
          type="password"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={32}
          required
          // biome-ignore lint/a11y/noAutofocus: the PIN is the only thing this page asks for.
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'admin-pin-error' : undefined}
          className={`mt-1.5 h-12 w-full rounded-lg border px-3 text-center text-xl tracking-[0.4em] ${error ? 'border-red-500' : 'border-slate-300'}`}
        />
        {error && (
          <p id="admin-pin-error" className="m-0 mt-2 text-sm text-red-600">
            {error}
          </p>
        )}
        <div className="mt-6 grid grid-cols-2 gap-3">
          <a href="/" className="rounded-lg border border-slate-300 py-2.5 text-center text-sm font-bold text-ink no-underline">
            Cancel
          </a>
          <button type="submit" className="rounded-lg bg-ink py-2.5 text-sm font-bold text-white cursor-pointer hover:bg-ink-light">
            Verify PIN
          </button>
        </div>
      </form>
    </div>
  );
}

export function showPinScreen<E extends AppEnv>(c: AppContext<E>, next: string, failure?: { status: PageStatus; error: string; toast: ToastInput }) {
  return renderPage(c, { title: 'Admin Authentication', path: '/admin', noindex: true }, <PinScreen next={next} error={failure?.error} />, {
    status: failure?.status,
    toast: failure?.toast,
  });
}

/**
 * Admin pages: signed-in non-admins see Access Denied; admins see the PIN screen until their
 * session passes the PIN. Behind requireUserPage: signed-out visitors were sent to /auth.
 */
export const adminGate: MiddlewareHandler<AppEnv & SignedInEnv> = async (c, next) => {
  const user = c.get('user');
  if (!user.isAdmin) {
    return renderPage(c, { title: 'Access Denied', path: '/admin', noindex: true }, <AccessDenied />, { status: 403 });
  }
  if (c.req.path === '/admin/pin') return next();
  if (sessionPassedPin(c.get('session'), c.env.deps.clock)) {
    touchPinUnlock(c.env.deps.db, c.get('session'), c.env.deps.clock);
    return next();
  }
  return showPinScreen(
    c,
    c.req.method === 'GET' ? currentPath(c) : '/admin',
    c.req.method === 'GET'
      ? undefined
      : {
          status: 403,
          error: 'Enter the admin PIN to continue.',
          toast: { title: 'Access denied', description: 'Enter the admin PIN to continue.', variant: 'destructive' },
        },
  );
};
