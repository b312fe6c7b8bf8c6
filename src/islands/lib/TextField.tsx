import type { InputHTMLAttributes } from 'react';

/** A labelled text input with its error message under it, wired for screen readers. */
export function TextField({
  idPrefix,
  name,
  label,
  defaultValue,
  error,
  ...props
}: { idPrefix: string; name: string; label: string; defaultValue: string; error?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'defaultValue'
>) {
  const id = `${idPrefix}-${name}`;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`h-11 w-full rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`}
        {...props}
      />
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
