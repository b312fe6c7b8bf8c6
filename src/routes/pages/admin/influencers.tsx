import { type Influencer, PLATFORMS } from '../../../domain/games/influencers-admin.ts';

/* The admin's Influencers tab and its add/edit form (server-rendered, no JavaScript needed). */

const platformNames: Record<string, string> = { instagram: 'Instagram', tiktok: 'TikTok', youtube: 'YouTube', twitter: 'Twitter' };

export function InfluencersTab({ people }: { people: Influencer[] }) {
  return (
    <section aria-label="Influencers" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="m-0 text-sm text-slate-600">{`${people.filter((p) => p.retiredAt === null).length} pickable, ${people.filter((p) => p.retiredAt !== null).length} retired`}</p>
        <a href="/admin/influencers/new" className="h-10 rounded-lg bg-ink px-4 text-sm font-bold leading-10 text-white no-underline hover:bg-ink-light">
          Add Influencer
        </a>
      </div>
      <ul className="m-0 grid list-none gap-2 p-0">
        {people.map((person) => (
          <li
            key={person.id}
            data-influencer-id={person.id}
            className={`flex flex-col gap-3 rounded-xl border border-slate-200 p-3 sm:flex-row sm:items-center ${person.retiredAt ? 'bg-slate-50' : ''}`}
          >
            <div className="flex min-w-0 flex-1 items-center gap-3">
              {person.avatar ? (
                <img src={person.avatar} alt="" width={40} height={40} className="h-10 w-10 shrink-0 rounded-full bg-slate-100 object-cover" />
              ) : (
                <span className="h-10 w-10 shrink-0 rounded-full bg-slate-200" />
              )}
              <div className="min-w-0 flex-1">
                <p className="m-0 font-bold">
                  {person.name}
                  {person.retiredAt !== null && <span className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-bold text-slate-700">Retired</span>}
                </p>
                <p className="m-0 text-sm text-slate-600">
                  {`${person.handle} · ${Object.entries(person.platforms)
                    .map(([platform, followers]) => `${platformNames[platform] ?? platform} ${followers}`)
                    .join(', ')} · ${person.engagementRate}% engagement`}
                </p>
              </div>
            </div>
            <div className="flex gap-2">
              <a
                href={`/admin/influencers/${person.id}`}
                className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-bold text-ink no-underline hover:border-ink"
              >
                Edit
              </a>
              <form method="post" action={`/admin/influencers/${person.id}/${person.retiredAt === null ? 'retire' : 'restore'}`} className="m-0">
                <button
                  type="submit"
                  className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-bold text-ink cursor-pointer hover:border-ink"
                >
                  {person.retiredAt === null ? 'Retire' : 'Restore'}
                </button>
              </form>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export type InfluencerFormValues = Record<string, string>;

export function influencerFormValues(person?: Influencer): InfluencerFormValues {
  if (!person) return { name: '', handle: '', category: '', engagementRate: '' };
  return {
    name: person.name,
    handle: person.handle,
    category: person.category,
    engagementRate: String(person.engagementRate),
    ...Object.fromEntries(Object.entries(person.platforms).map(([platform, followers]) => [`followers.${platform}`, followers])),
  };
}

const inputClass = (error?: string) => `mt-1.5 h-11 w-full rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`;

function Field({
  name,
  label,
  values,
  errors,
  hint,
}: {
  name: string;
  label: string;
  values: InfluencerFormValues;
  errors: Record<string, string>;
  hint?: string;
}) {
  const error = errors[name];
  return (
    <label className="block text-sm font-semibold">
      {label}
      <input name={name} defaultValue={values[name] ?? ''} aria-invalid={error ? true : undefined} className={inputClass(error)} placeholder={hint} />
      {error && <span className="mt-1 block text-sm font-normal text-red-700">{error}</span>}
    </label>
  );
}

export function InfluencerForm({
  action,
  values,
  errors,
  avatar,
}: {
  action: string;
  values: InfluencerFormValues;
  errors: Record<string, string>;
  avatar: string;
}) {
  const editing = action !== '/admin/influencers/new';
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="m-0 mb-4 text-2xl font-extrabold">{editing ? 'Edit Influencer' : 'Add Influencer'}</h1>
      <form method="post" action={action} encType="multipart/form-data" className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        {errors._ && (
          <p role="alert" className="m-0 text-sm font-semibold text-red-700">
            {errors._}
          </p>
        )}
        <Field name="name" label="Name" values={values} errors={errors} />
        <Field name="handle" label="Handle" values={values} errors={errors} hint="@handle" />
        <Field name="category" label="Category" values={values} errors={errors} hint="Fashion, Surf, Books..." />
        <Field name="engagementRate" label="Engagement rate (%)" values={values} errors={errors} hint="0.1 to 20" />
        <fieldset className="m-0 grid gap-3 rounded-xl border border-slate-200 p-4 sm:grid-cols-2">
          <legend className="px-1 text-sm font-bold">Followers per platform (K, M or B; leave empty when not on it)</legend>
          {PLATFORMS.map((platform) => (
            <Field key={platform} name={`followers.${platform}`} label={platformNames[platform]!} values={values} errors={errors} hint="2.4M" />
          ))}
          {errors.platforms && <p className="m-0 text-sm text-red-700 sm:col-span-2">{errors.platforms}</p>}
        </fieldset>
        <label className="block text-sm font-semibold">
          Avatar (JPEG, PNG, WebP or GIF, at most 5 MB)
          {avatar && <img src={avatar} alt="" width={48} height={48} className="mt-2 block h-12 w-12 rounded-full object-cover" />}
          <input type="file" name="avatar" accept="image/jpeg,image/png,image/webp,image/gif" className="mt-1.5 block text-sm" />
          {errors.image && <span className="mt-1 block text-sm font-normal text-red-700">{errors.image}</span>}
        </label>
        <div className="flex justify-end gap-3">
          <a href="/admin?tab=influencers" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-bold text-ink no-underline">
            Cancel
          </a>
          <button type="submit" className="rounded-lg border-0 bg-ink px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-ink-light">
            {editing ? 'Save Influencer' : 'Add Influencer'}
          </button>
        </div>
      </form>
    </div>
  );
}
