import { Hono } from 'hono';
import { DomainError } from '../../domain/errors.ts';
import { playerSettingsView, selfExclude, setDailyEntryLimit, type PlayerSettingsView } from '../../domain/accounts/responsible-play.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { setFlash } from '../../http/flash.ts';
import { formBody } from '../../http/request.ts';
import { playLimitForm, selfExclusionForm } from '../../shared/schemas/games.ts';
import { requireUserPage, type SignedInEnv } from '../../http/guards.ts';
import { FreeEntriesSection, type FreeEntriesOfUser } from './free-entries.tsx';

/*
 * The profile's Play tab (responsible play, /rules): the daily entry limit and self-exclusion.
 * Plain forms that post and come back with a flash, so they work without JavaScript; the same
 * domain functions serve PUT /api/user/play-limits and POST /api/user/self-exclusion.
 */

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', dateStyle: 'long' });
const timeFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', dateStyle: 'long', timeStyle: 'short' });

/** A raise waits 24 hours (responsible-play.ts): the player is told when it starts. */
export function pendingLimitText(settings: PlayerSettingsView): string | null {
  if (settings.pendingDailyEntryLimit === null || settings.pendingLimitFrom === null) return null;
  return `Your new limit of ${settings.pendingDailyEntryLimit} starts at ${timeFormat.format(settings.pendingLimitFrom)}.`;
}
const periods: { value: string; label: string }[] = [
  { value: '30d', label: '30 days' },
  { value: '6m', label: '6 months' },
  { value: 'permanent', label: 'Permanently' },
];

export function playSettingsOf<E extends AppEnv & SignedInEnv>(c: AppContext<E>): PlayerSettingsView {
  const { db, clock, config } = c.env.deps;
  return playerSettingsView(db, clock, c.get('user').id, config.dailyEntryLimit);
}

export function PlayTab({ settings, free }: { settings: PlayerSettingsView; free?: FreeEntriesOfUser }) {
  const excluded = settings.excludedUntil !== null;
  const pending = pendingLimitText(settings);
  return (
    <div className="grid gap-6">
      {free && <FreeEntriesSection free={free} />}
      <section aria-labelledby="limit-heading">
        <h2 id="limit-heading" className="m-0 text-lg font-bold">
          Daily entry limit
        </h2>
        <p className="m-0 mt-1 text-sm text-slate-600">
          {`You have entered ${settings.entriesToday} ${settings.entriesToday === 1 ? 'game' : 'games'} in the last 24 hours. Your limit is ${settings.dailyEntryLimit} (at most ${settings.maxDailyEntryLimit}).`}
        </p>
        {pending && (
          <p className="m-0 mt-1 text-sm font-semibold text-ink" data-pending-limit="">
            {pending}
          </p>
        )}
        <p className="m-0 mt-1 text-sm text-slate-600">A lower limit applies at once; a higher one starts 24 hours after you save it.</p>
        <form method="post" action="/profile/play-limit" className="mt-3 flex flex-wrap items-end gap-3">
          <label className="text-sm font-semibold">
            Entries in any 24 hours
            <input
              type="number"
              name="dailyEntryLimit"
              min={1}
              max={settings.maxDailyEntryLimit}
              step={1}
              required
              defaultValue={settings.dailyEntryLimit}
              className="mt-1.5 block h-11 w-32 rounded-lg border border-slate-300 bg-white px-3 text-base"
            />
          </label>
          <button type="submit" className="h-11 rounded-lg border-0 bg-ink px-5 text-sm font-bold text-white cursor-pointer hover:bg-ink-light">
            Save limit
          </button>
        </form>
      </section>

      <section aria-labelledby="exclusion-heading">
        <h2 id="exclusion-heading" className="m-0 text-lg font-bold">
          Take a break
        </h2>
        {excluded ? (
          <p className="m-0 mt-1 text-sm font-semibold text-ink" data-excluded="">
            {settings.permanentlyExcluded
              ? 'You have excluded yourself from games permanently.'
              : `You have excluded yourself from games until ${dateFormat.format(settings.excludedUntil!)}.`}
          </p>
        ) : (
          <p className="m-0 mt-1 text-sm text-slate-600">
            Exclude yourself from games. It starts at once and cannot be shortened or undone, even by deleting your account: it follows your e-mail, phone and
            card. Shopping stays open.
          </p>
        )}
        {!settings.permanentlyExcluded && (
          <form method="post" action="/profile/self-exclusion" className="mt-3 grid gap-3">
            <fieldset className="m-0 flex flex-wrap gap-4 border-0 p-0">
              <legend className="mb-2 p-0 text-sm font-semibold">{excluded ? 'Make it longer' : 'Period'}</legend>
              {periods.map((p) => (
                <label key={p.value} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="period" value={p.value} required className="h-4 w-4" />
                  {p.label}
                </label>
              ))}
            </fieldset>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" name="confirm" value="yes" required className="mt-0.5 h-4 w-4" />I understand this cannot be undone before it ends.
            </label>
            <div>
              <button type="submit" className="h-11 rounded-lg border-0 bg-red-700 px-5 text-sm font-bold text-white cursor-pointer hover:bg-red-800">
                Exclude me from games
              </button>
            </div>
          </form>
        )}
      </section>
      <p className="m-0 text-sm">
        <a href="/rules#rules-responsible" className="font-semibold text-sea-dark">
          Official rules and responsible play
        </a>
      </p>
    </div>
  );
}

const back = <E extends AppEnv>(c: AppContext<E>) => c.redirect('/profile?tab=play', 303);

function fail<E extends AppEnv>(c: AppContext<E>, error: unknown): Response {
  if (!(error instanceof DomainError)) throw error;
  setFlash(c, { title: 'Not saved', description: error.message, variant: 'destructive' });
  return back(c);
}

/** The Play tab's two forms. */
export const profilePlayForms = new Hono<AppEnv>()
  .post('/profile/play-limit', requireUserPage, formBody(playLimitForm, fail), (c) => {
    const { db, clock, config } = c.env.deps;
    try {
      const view = setDailyEntryLimit(db, clock, c.get('user').id, c.req.valid('form').dailyEntryLimit, config.dailyEntryLimit);
      setFlash(c, { title: 'Limit saved', description: pendingLimitText(view) ?? `You can enter up to ${view.dailyEntryLimit} games in any 24 hours.` });
    } catch (error) {
      return fail(c, error);
    }
    return back(c);
  })
  .post('/profile/self-exclusion', requireUserPage, formBody(selfExclusionForm, fail), (c) => {
    const form = c.req.valid('form');
    if (!form.confirm) {
      setFlash(c, { title: 'Not saved', description: 'Please confirm that you understand this cannot be undone.', variant: 'destructive' });
      return back(c);
    }
    const { db, clock, config } = c.env.deps;
    try {
      selfExclude(db, clock, c.get('user').id, form.period, config.dailyEntryLimit);
      setFlash(c, { title: 'Break started', description: 'You are excluded from games. Take care.' });
    } catch (error) {
      return fail(c, error);
    }
    return back(c);
  });
