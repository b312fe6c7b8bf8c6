import { Hono } from 'hono';
import { formatDateTime } from '../../../../components/format.ts';
import { type AdminFreeEntries, adminFreeEntries, type FreeEntryState, freeEntriesCsv } from '../../../../domain/promotions/free-entries-views.ts';
import type { AppContext, AppEnv } from '../../../../http/context.ts';
import { AdminFreeEntriesSection, isFreeEntryState } from './free-entries.tsx';

/*
 * The admin's Promotions tab (issue 29): one section per way to buy, each in its own file
 * beside this one, each with its CSV export under /admin/promotions/.
 */

export interface PromotionsData {
  freeEntries: AdminFreeEntries;
  freeState: FreeEntryState | null;
}

/** What the tab shows, read when it is the tab asked for. */
export function promotionsOf<E extends AppEnv>(c: AppContext<E>): PromotionsData {
  const asked = c.req.query('free');
  const freeState = isFreeEntryState(asked) ? asked : null;
  return { freeEntries: adminFreeEntries(c.env.deps.db, c.env.deps.clock.now(), freeState ?? undefined), freeState };
}

export function PromotionsTab({ data }: { data: PromotionsData }) {
  return (
    <div className="grid gap-5">
      <AdminFreeEntriesSection data={data.freeEntries} state={data.freeState} />
    </div>
  );
}

function csvAnswer<E extends AppEnv>(c: AppContext<E>, name: string, csv: string): Response {
  const day = new Date(c.env.deps.clock.now()).toISOString().slice(0, 10);
  return c.body(csv, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${name}-${day}.csv"`,
    'Cache-Control': 'no-store',
  });
}

/** The tab's exports (behind the admin gate of /admin/*). */
export const adminPromotions = new Hono<AppEnv>().get('/admin/promotions/free-entries.csv', (c) => {
  const asked = c.req.query('state');
  const state = isFreeEntryState(asked) ? asked : undefined;
  const { entries } = adminFreeEntries(c.env.deps.db, c.env.deps.clock.now(), state, Number.MAX_SAFE_INTEGER);
  return csvAnswer(c, `free-entries-${state ?? 'all'}`, freeEntriesCsv(entries, formatDateTime));
});
