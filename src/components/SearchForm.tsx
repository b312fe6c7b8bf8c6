/**
 * A GET search form (role="search") that works without JavaScript: the header's, the
 * gallery's and the admin list's. Hidden fields keep the view the search narrows (type, sort,
 * tab); `look` sets its size and colours for where it stands.
 */
const looks = {
  header: {
    form: 'm-0 flex gap-2',
    input: 'h-10 flex-1 min-w-0 rounded-lg border border-slate-300 px-3 text-base',
    button: 'h-10 rounded-lg bg-ink px-3 text-sm font-bold text-white cursor-pointer',
  },
  gallery: {
    form: 'flex gap-2 mb-4',
    input: 'h-11 flex-1 min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-base',
    button: 'h-11 rounded-lg bg-ink px-4 text-sm font-bold text-white cursor-pointer hover:bg-ink-light',
  },
  admin: {
    form: 'flex min-w-0 flex-[1_1_14rem] gap-2',
    input: 'h-10 min-w-0 flex-1 rounded-lg border border-slate-300 px-3',
    button: 'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm font-bold cursor-pointer',
  },
} as const;

export function SearchForm({
  id,
  action,
  label,
  placeholder,
  defaultValue,
  keep = {},
  look,
}: {
  id: string;
  action: string;
  /** For screen readers: what the search looks in. */
  label: string;
  placeholder: string;
  defaultValue?: string;
  /** Query parameters the search keeps (undefined ones are left out). */
  keep?: Record<string, string | undefined>;
  look: keyof typeof looks;
}) {
  const style = looks[look];
  return (
    <form method="get" action={action} role="search" className={style.form}>
      {Object.entries(keep).map(([name, value]) => value !== undefined && <input key={name} type="hidden" name={name} value={value} />)}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} name="q" type="search" defaultValue={defaultValue} maxLength={100} placeholder={placeholder} className={style.input} />
      <button type="submit" className={style.button}>
        Search
      </button>
    </form>
  );
}
