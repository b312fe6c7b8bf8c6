import { Hono } from 'hono';
import { BackToLogin } from '../../components/BackToLogin.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { changePassword, confirmPasswordReset, RESET_LINK_INVALID, requestPasswordReset } from '../../domain/accounts/account-recovery.ts';
import { closeAccount } from '../../flows/end-account.ts';
import { DomainError } from '../../domain/errors.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { setFlash } from '../../http/flash.ts';
import { renderPage } from '../../http/render.tsx';
import { endSession } from '../../http/session-cookie.ts';
import { accountDeleteSchema, passwordChangeSchema, passwordResetFormSchema, passwordResetRequestSchema } from '../../shared/schemas/account.ts';
import { fieldErrorsOf } from '../../shared/schemas/field-errors.ts';
import { requireUserPage } from '../../http/guards.ts';

/*
 * Account recovery pages (/auth/forgot, /auth/reset) and the Account tab's forms. Plain forms
 * that post to the server: they work without JavaScript, and call the same domain functions as
 * the JSON API.
 */

async function fields<E extends AppEnv>(c: AppContext<E>): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') out[key] = value;
  return out;
}

/** A reset link is a key: the page never leaks it to another site or a cache. */
function private_<E extends AppEnv>(c: AppContext<E>) {
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
}

function Field({ name, error, value, ...input }: { name: string; label: string; type: string; error?: string; autoComplete: string; value?: string }) {
  return <TextField id={`account-${name}`} name={name} defaultValue={value} required error={error} {...input} />;
}

const button = 'h-11 cursor-pointer rounded-lg border-0 bg-ink px-5 text-sm font-bold text-white';

function ForgotPage({ sent, error, email }: { sent?: string; error?: string; email?: string }) {
  return (
    <div className="mx-auto grid max-w-md gap-4 pt-4">
      <h1 className="m-0 text-2xl font-extrabold">Forgot password?</h1>
      {sent ? (
        <p role="status" className="m-0 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900">
          {sent}
        </p>
      ) : (
        <p className="m-0 text-slate-600">Enter the e-mail address of your account, or its username. We will e-mail you a link to choose a new password.</p>
      )}
      <form method="post" action="/auth/forgot" className="grid gap-4" noValidate>
        <Field name="email" label="E-mail or username" type="text" autoComplete="username" error={error} value={email} />
        <button type="submit" className={button}>
          Send reset link
        </button>
      </form>
      <BackToLogin />
    </div>
  );
}

function ResetPage({ token, errors = {} }: { token: string; errors?: Record<string, string> }) {
  return (
    <div className="mx-auto grid max-w-md gap-4 pt-4">
      <h1 className="m-0 text-2xl font-extrabold">Choose a new password</h1>
      {errors.token && (
        <p role="alert" className="m-0 rounded-xl bg-red-50 p-4 text-sm text-red-800">
          {errors.token}{' '}
          <a href="/auth/forgot" className="font-semibold">
            Ask for a new link
          </a>
        </p>
      )}
      <form method="post" action="/auth/reset" className="grid gap-4" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field name="password" label="New password" type="password" autoComplete="new-password" error={errors.password} />
        <Field name="confirmPassword" label="Confirm Password" type="password" autoComplete="new-password" error={errors.confirmPassword} />
        <button type="submit" className={button}>
          Set new password
        </button>
      </form>
    </div>
  );
}

/** The Account tab of /profile: password, data, deletion. */
export function AccountSettings({
  errors = {},
  email,
  pendingEmail,
  confirmed,
}: {
  errors?: Record<string, string>;
  email: string;
  pendingEmail: string | null;
  /** Whether the account's address was confirmed through its link (reset links need it). */
  confirmed: boolean;
}) {
  return (
    <div className="grid gap-8">
      <section aria-labelledby="email-title" className="grid gap-2">
        <h2 id="email-title" className="m-0 text-lg font-bold">
          E-mail address
        </h2>
        <p className="m-0 text-sm text-slate-700">
          {email ? `Receipts and security messages go to ${email}. ` : 'Add an e-mail address for your receipts and security messages. '}
          {email &&
            !confirmed &&
            'It is not confirmed yet, so we cannot send a password reset link there: open the link we sent to it, or save your profile again for a new one. '}
          {pendingEmail && pendingEmail.toLowerCase() !== email.toLowerCase() && `Waiting for confirmation: ${pendingEmail}. `}
          <a href="/profile" className="font-semibold text-sea-dark">
            {email ? 'Change it on the Personal tab' : 'Add it on the Personal tab'}
          </a>
          {email ? ': a new address needs your current password and counts once you open the link we send to it.' : '.'}
        </p>
      </section>
      <section aria-labelledby="password-title" className="grid gap-3">
        <h2 id="password-title" className="m-0 text-lg font-bold">
          Change password
        </h2>
        <form method="post" action="/profile/password" className="grid gap-3 sm:max-w-sm" noValidate>
          <Field name="currentPassword" label="Current password" type="password" autoComplete="current-password" error={errors.currentPassword} />
          <Field name="newPassword" label="New password" type="password" autoComplete="new-password" error={errors.newPassword} />
          <button type="submit" className={button}>
            Change password
          </button>
        </form>
        <p className="m-0 text-sm text-slate-600">Other devices signed in to your account are signed out; this one stays.</p>
      </section>
      <section aria-labelledby="data-title" className="grid gap-2">
        <h2 id="data-title" className="m-0 text-lg font-bold">
          Your data
        </h2>
        <p className="m-0 text-sm text-slate-600">
          {'A copy of your profile, orders, games and notifications as a JSON file (your right to know, see our '}
          <a href="/privacy" className="font-semibold text-sea-dark">
            Privacy page
          </a>
          ).
        </p>
        <p className="m-0">
          <a href="/api/user/export" download className="inline-block rounded-lg border border-slate-300 px-4 py-2 text-sm font-bold text-ink no-underline">
            Download my data
          </a>
        </p>
      </section>
      <section aria-labelledby="delete-title" className="grid gap-3 rounded-xl border border-red-200 p-4">
        <h2 id="delete-title" className="m-0 text-lg font-bold text-red-800">
          Delete my account
        </h2>
        <p className="m-0 text-sm text-slate-700">
          This signs you out everywhere and erases your name, e-mail, phone, address, cart and notifications. Orders are kept for our books without your
          personal details. A break from games you took stays in force until it ends. It cannot be undone.
        </p>
        <form method="post" action="/profile/delete" className="grid gap-3 sm:max-w-sm" noValidate>
          <Field name="password" label="Your password" type="password" autoComplete="current-password" error={errors.password} />
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="confirm" value="yes" required className="mt-1" />
            <span>I understand that my account is deleted for good.</span>
          </label>
          {errors.confirm && <p className="m-0 text-sm text-red-600">{errors.confirm}</p>}
          <button type="submit" className="h-11 cursor-pointer rounded-lg border-0 bg-red-700 px-5 text-sm font-bold text-white">
            Delete my account
          </button>
        </form>
      </section>
    </div>
  );
}

export const accountPages = new Hono<AppEnv>()
  .get('/auth/forgot', (c) => {
    private_(c);
    return renderPage(c, { title: 'Forgot password?', path: '/auth/forgot', noindex: true }, <ForgotPage />, { backHref: '/auth' });
  })
  .post('/auth/forgot', async (c) => {
    private_(c);
    const form = await fields(c);
    const typed = (form.email ?? '').trim();
    const input = passwordResetRequestSchema.safeParse(typed.includes('@') ? { email: typed } : { username: typed });
    try {
      if (!input.success || !typed) throw new DomainError(400, 'Enter the e-mail address or username of your account.');
      const { db, clock, limits } = c.env.deps;
      const sent = requestPasswordReset({ db, clock, limits }, input.data, clientIp(c)).message;
      return renderPage(c, { title: 'Forgot password?', path: '/auth/forgot', noindex: true }, <ForgotPage sent={sent} />, { backHref: '/auth' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return renderPage(c, { title: 'Forgot password?', path: '/auth/forgot', noindex: true }, <ForgotPage error={error.message} email={typed} />, {
        status: error.status === 429 ? 429 : 400,
        backHref: '/auth',
      });
    }
  })
  .get('/auth/reset', (c) => {
    private_(c);
    const token = c.req.query('token') ?? '';
    return renderPage(
      c,
      { title: 'Choose a new password', path: '/auth/reset', noindex: true },
      <ResetPage token={token} errors={token ? {} : { token: RESET_LINK_INVALID }} />,
    );
  })
  .post('/auth/reset', async (c) => {
    private_(c);
    const form = await fields(c);
    const checked = passwordResetFormSchema.safeParse(form);
    const page = (errors: Record<string, string>) =>
      renderPage(c, { title: 'Choose a new password', path: '/auth/reset', noindex: true }, <ResetPage token={form.token ?? ''} errors={errors} />, {
        status: 400,
      });
    if (!checked.success) return page(fieldErrorsOf(checked.error));
    try {
      await confirmPasswordReset(c.env.deps, checked.data);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return page(error.fields ?? { token: error.message });
    }
    endSession(c);
    setFlash(c, { title: 'Password updated', description: 'Your password has been changed and every device was signed out. Please log in with the new one.' });
    return c.redirect('/auth', 303);
  })
  .post('/profile/password', requireUserPage, async (c) => {
    const checked = passwordChangeSchema.safeParse(await fields(c));
    try {
      if (!checked.success) throw new DomainError(400, 'Check the passwords', fieldErrorsOf(checked.error));
      await changePassword(c.env.deps, c.get('user').id, c.get('session').id, checked.data);
      setFlash(c, { title: 'Password changed', description: 'Your password has been changed. Other devices were signed out.' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Password not changed', description: Object.values(error.fields ?? {})[0] ?? error.message, variant: 'destructive' });
    }
    return c.redirect('/profile?tab=account', 303);
  })
  .post('/profile/delete', requireUserPage, async (c) => {
    const form = await fields(c);
    const checked = accountDeleteSchema.safeParse(form);
    try {
      if (!checked.success) throw new DomainError(400, Object.values(fieldErrorsOf(checked.error))[0] ?? 'Enter your password to delete your account');
      if (form.confirm !== 'yes') throw new DomainError(400, 'Tick the box to confirm that your account is deleted for good.');
      await closeAccount(c.env.deps, c.get('user').id, checked.data.password);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Account not deleted', description: Object.values(error.fields ?? {})[0] ?? error.message, variant: 'destructive' });
      return c.redirect('/profile?tab=account', 303);
    }
    endSession(c);
    setFlash(c, { title: 'Account deleted', description: 'Your account and its personal details have been deleted. Thank you for shopping with us.' });
    return c.redirect('/', 303);
  });
