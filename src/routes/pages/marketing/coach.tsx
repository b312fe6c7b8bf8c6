import { COACH_THANK_YOU } from '../../../domain/catalog/coach.ts';
import { ButtonLink } from './shared.tsx';

/*
 * The coach pages (spec section 2): /coach and one path per platform all show the same
 * coming-soon page with an e-mail sign-up that works without JavaScript.
 */

export const coachPlatforms = { twitter: 'Twitter', instagram: 'Instagram', youtube: 'YouTube', tiktok: 'TikTok' } as const;
export type CoachPlatform = keyof typeof coachPlatforms;
export const coachPaths = ['/coach', ...Object.keys(coachPlatforms).map((p) => `/coach/${p}`)];

export function platformOf(path: string): CoachPlatform | undefined {
  const key = path.split('/')[2];
  return key && key in coachPlatforms ? (key as CoachPlatform) : undefined;
}

export interface CoachPageProps {
  path: string;
  subscribed: boolean;
  email?: string;
  error?: string;
}

export function CoachPage({ path, subscribed, email = '', error }: CoachPageProps) {
  const platform = platformOf(path);
  const subtitle = platform ? `Influencer coaching for ${coachPlatforms[platform]}` : 'Influencer coaching for Twitter, Instagram, YouTube and TikTok';
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <section className="relative overflow-hidden rounded-3xl bg-ink px-5 py-8 text-white sm:px-10 sm:py-12">
        <div aria-hidden="true" className="pointer-events-none absolute -right-16 -top-16 h-56 w-56 rounded-full bg-coral/25 blur-2xl" />
        <div className="relative">
          <p className="m-0 inline-block rounded-full bg-coral-dark px-3 py-1 text-xs font-bold uppercase tracking-wider text-white">Coming soon</p>
          <h1 className="m-0 mt-3 text-3xl font-extrabold leading-tight sm:text-5xl">Coach is coming soon</h1>
          <p className="m-0 mt-2 text-lg font-semibold text-coral-light">{subtitle}</p>
          <p className="m-0 mt-3 max-w-2xl text-slate-200">
            Coach will help you pick a stronger line-up of five: which creators are gaining followers right now, whose engagement and growth hold up over an
            hour, and how often they post. Learn how scores add up before your next $1 game.
          </p>
          <div className="mt-6">
            <ButtonLink href="/products">Shop Now</ButtonLink>
          </div>
        </div>
      </section>

      <nav aria-label="Coach platforms" className="flex flex-wrap gap-2">
        {coachPaths.map((href) => {
          const key = platformOf(href);
          return (
            <a
              key={href}
              href={href}
              aria-current={href === path ? 'page' : undefined}
              className={`rounded-full border px-4 py-2 text-sm font-semibold no-underline ${href === path ? 'border-ink bg-ink text-white' : 'border-slate-300 bg-white text-ink hover:border-ink'}`}
            >
              {key ? coachPlatforms[key] : 'All platforms'}
            </a>
          );
        })}
      </nav>

      <section id="notify" aria-labelledby="notify-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="notify-heading" className="m-0 text-xl font-extrabold">
          Be the first to know
        </h2>
        {subscribed ? (
          <p role="status" className="m-0 mt-3 rounded-xl bg-emerald-50 p-4 font-semibold text-emerald-800">
            {COACH_THANK_YOU}
          </p>
        ) : (
          <>
            <p className="m-0 mt-1 text-sm text-slate-600">Leave your e-mail and we will tell you when Coach launches. Nothing else.</p>
            <form method="post" action="/coach/signup" className="mt-4">
              <input type="hidden" name="next" value={path} />
              <label htmlFor="coach-email" className="text-sm font-medium">
                Email address
              </label>
              <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
                <input
                  id="coach-email"
                  name="email"
                  type="email"
                  required
                  autoComplete="email"
                  maxLength={254}
                  defaultValue={email}
                  placeholder="you@example.com"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? 'coach-email-error' : undefined}
                  className={`h-11 min-w-0 flex-1 rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`}
                />
                <button type="submit" className="h-11 cursor-pointer rounded-lg bg-ink px-6 text-sm font-bold text-white hover:bg-ink-light">
                  Notify Me
                </button>
              </div>
              {error && (
                <p id="coach-email-error" className="m-0 mt-1.5 text-sm text-red-600">
                  {error}
                </p>
              )}
            </form>
          </>
        )}
      </section>
    </div>
  );
}
