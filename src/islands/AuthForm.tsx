import { useId, useState, type FormEvent } from 'react';
import { fieldErrorsOf } from '../shared/schemas/field-errors.ts';
import { type AuthTab, loginSchema, registerFormSchema } from '../shared/schemas/auth.ts';
import { ApiError, apiRequest } from './lib/http.ts';
import { toast, toastAfterNavigation } from './lib/toast.ts';
import { safeNextPath } from '../shared/safe-next-path.ts';
import type { ToastInput } from '../shared/toast.ts';

export type { AuthTab };

export interface AuthFormProps {
  tab: AuthTab;
  /** Where to go after signing in: a local path. */
  next: string;
  /** Field messages and the typed username, when the server re-renders a form post. */
  errors?: Record<string, string>;
  username?: string;
}

interface PublicUser {
  id: number;
  username: string;
  isAdmin: boolean;
}

/**
 * Login and Register tabs. Each form posts to the server and works without JavaScript;
 * hydrated, it checks the shared rules first and calls the JSON API.
 */
export default function AuthForm(props: AuthFormProps) {
  const [tab, setTab] = useState<AuthTab>(props.tab);
  const id = useId();
  const tabs: { key: AuthTab; label: string }[] = [
    { key: 'login', label: 'Login' },
    { key: 'register', label: 'Register' },
  ];
  return (
    <div className="w-full">
      <div role="tablist" aria-label="Sign in or create an account" className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1">
        {tabs.map(({ key, label }) => (
          <a
            key={key}
            role="tab"
            id={`${id}-${key}-tab`}
            aria-selected={tab === key}
            aria-controls={`${id}-${key}-panel`}
            href={`/auth?tab=${key}${props.next !== '/' ? `&next=${encodeURIComponent(props.next)}` : ''}`}
            onClick={(event) => {
              event.preventDefault();
              setTab(key);
              history.replaceState(null, '', `?tab=${key}${props.next !== '/' ? `&next=${encodeURIComponent(props.next)}` : ''}`);
            }}
            className={`rounded-lg py-2 text-center text-sm font-semibold no-underline ${
              tab === key ? 'bg-white text-ink shadow-sm' : 'text-slate-600 hover:text-ink'
            }`}
          >
            {label}
          </a>
        ))}
      </div>
      {tabs.map(({ key }) => (
        <div key={key} role="tabpanel" id={`${id}-${key}-panel`} aria-labelledby={`${id}-${key}-tab`} hidden={tab !== key} className="mt-6">
          <CredentialsForm
            kind={key}
            next={props.next}
            initialErrors={props.tab === key ? props.errors : undefined}
            initialUsername={props.tab === key ? props.username : undefined}
          />
        </div>
      ))}
    </div>
  );
}

function CredentialsForm({
  kind,
  next,
  initialErrors,
  initialUsername,
}: {
  kind: AuthTab;
  next: string;
  initialErrors?: Record<string, string>;
  initialUsername?: string;
}) {
  const [errors, setErrors] = useState<Record<string, string>>(initialErrors ?? {});
  const [busy, setBusy] = useState(false);
  const id = useId();
  const isLogin = kind === 'login';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const checked = (isLogin ? loginSchema : registerFormSchema).safeParse(form);
    if (!checked.success) {
      setErrors(fieldErrorsOf(checked.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      // notice and next: a product the visitor added to the cart before signing in (or the profile it still needs).
      const user = await apiRequest<PublicUser & { notice?: ToastInput; next?: string }>('POST', isLogin ? '/api/login' : '/api/register', {
        username: checked.data.username,
        password: checked.data.password,
      });
      toastAfterNavigation(
        user.notice ??
          (isLogin
            ? { title: 'Login successful', description: `Welcome back, ${user.username}!` }
            : { title: 'Registration successful', description: `Welcome to the Competitive Shopping Association, ${user.username}!` }),
      );
      window.location.assign(safeNextPath(user.next ?? next));
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Something went wrong. Please try again.';
      if (error instanceof ApiError) setErrors(error.fields);
      toast({ title: isLogin ? 'Login failed' : 'Registration failed', description: message, variant: 'destructive' });
      setBusy(false);
    }
  }

  const fields: { name: string; label: string; type: string; autoComplete: string }[] = [
    { name: 'username', label: 'Username', type: 'text', autoComplete: 'username' },
    { name: 'password', label: 'Password', type: 'password', autoComplete: isLogin ? 'current-password' : 'new-password' },
    ...(isLogin ? [] : [{ name: 'confirmPassword', label: 'Confirm Password', type: 'password', autoComplete: 'new-password' }]),
  ];

  return (
    <form method="post" action={`/auth/${kind}?next=${encodeURIComponent(next)}`} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      {fields.map((field) => {
        const inputId = `${id}-${field.name}`;
        const error = errors[field.name];
        return (
          <div key={field.name} className="flex flex-col gap-1.5">
            <label htmlFor={inputId} className="text-sm font-medium text-ink">
              {field.label}
            </label>
            <input
              id={inputId}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              defaultValue={field.name === 'username' ? initialUsername : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              className={`h-11 rounded-lg border px-3 text-base text-ink bg-white focus:outline-none focus:ring-2 focus:ring-coral ${
                error ? 'border-red-500' : 'border-slate-300'
              }`}
            />
            {error && (
              <p id={`${inputId}-error`} className="m-0 text-sm text-red-600">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <button
        type="submit"
        disabled={busy}
        className="mt-2 h-11 rounded-lg bg-ink text-white font-semibold cursor-pointer hover:bg-ink-light disabled:opacity-60 disabled:cursor-wait"
      >
        {busy ? (isLogin ? 'Logging in...' : 'Creating account...') : isLogin ? 'Login' : 'Register'}
      </button>
      {isLogin && (
        <p className="m-0 text-center text-sm">
          <a href="/auth/forgot" className="font-semibold text-sea-dark">
            Forgot password?
          </a>
        </p>
      )}
    </form>
  );
}
