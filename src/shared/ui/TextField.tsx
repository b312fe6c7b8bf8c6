import type { InputHTMLAttributes } from 'react';

/**
 * A labelled text input with its error message under it, wired for screen readers: the one
 * field of the server forms (sign-in help, password, profile) and the checkout islands.
 */
export function TextField({
  id,
  label,
  error,
  ...input
}: { id: string; name: string; label: string; error?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`h-11 w-full rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
