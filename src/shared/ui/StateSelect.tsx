import { US_STATES } from '../us-states.ts';

/**
 * The State field: a select of the US states sending the 2-letter code. A value saved before
 * the select (free text it does not know) stays shown as typed until a state is chosen.
 */
export function StateSelect({
  id,
  name,
  value,
  error,
  onChange,
}: {
  id: string;
  name: string;
  value: string;
  error?: string;
  onChange?: (code: string) => void;
}) {
  const known = US_STATES.some((state) => state.code === value);
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        State
      </label>
      <select
        id={id}
        name={name}
        autoComplete="address-level1"
        {...(onChange ? { value, onChange: (event) => onChange(event.target.value) } : { defaultValue: value })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`h-11 w-full rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`}
      >
        <option value="">Choose…</option>
        {value && !known && <option value={value}>{`${value} (choose your state from the list)`}</option>}
        {US_STATES.map((state) => (
          <option key={state.code} value={state.code}>
            {state.name}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
