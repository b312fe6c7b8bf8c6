import { Hono } from 'hono';
import { formatDateTime } from '../../../../components/format.ts';
import { type AdminFreeEntries, adminFreeEntries, type FreeEntryState, freeEntriesCsv } from '../../../../domain/promotions/free-entries-views.ts';
import type { AppContext, AppEnv } from '../../../../http/context.ts';
import { MysteryBoxesSection, mysteryBoxesAdmin } from './boxes.tsx';
import { adminDonations, DonationsSection, donationsData, type DonationsData } from './donations.tsx';
import { AdminFreeEntriesSection, isFreeEntryState } from './free-entries.tsx';
import { adminTeamsRoutes, TeamsSection, type TeamsSectionData, teamsSectionData } from './teams.tsx';

/*
 * The admin's Promotions tab (issue 29 item 5): one section per way to buy beyond buy now and
 * play, each in its own file beside this one with its own routes and CSV export under
 * /admin/promotions/.
 */

interface PromotionsData {
  teams: TeamsSectionData;
  freeEntries: AdminFreeEntries;
  freeState: FreeEntryState | null;
  donations: DonationsData;
}

/** What the tab shows, read only when it is the open tab (query: teams=open|filled|expired, free=state). */
function promotionsData<E extends AppEnv>(c: AppContext<E>): PromotionsData {
  const { db, clock } = c.env.deps;
  const asked = c.req.query('free');
  const freeState = isFreeEntryState(asked) ? asked : null;
  return {
    teams: teamsSectionData(db, c.req.query('teams')),
    freeEntries: adminFreeEntries(db, clock.now(), freeState ?? undefined),
    freeState,
    donations: donationsData(c.env.deps),
  };
}

/**
 * The tab; the mystery boxes' section reads its own data from the request (its forms post back to
 * it). One column that may be narrower than a section's widest table (which then scrolls in its own
 * box): a grid item is otherwise at least its content's min-content width, and a 320 px phone
 * scrolled sideways.
 */
export function PromotionsTab<E extends AppEnv>({ c }: { c: AppContext<E> }) {
  const data = promotionsData(c);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-5" data-tab="promotions">
      <h2 className="m-0 text-xl font-extrabold">Promotions</h2>
      <TeamsSection data={data.teams} />
      <MysteryBoxesSection c={c} />
      <AdminFreeEntriesSection data={data.freeEntries} state={data.freeState} />
      <DonationsSection data={data.donations} />
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

const freeEntriesExport = new Hono<AppEnv>().get('/admin/promotions/free-entries.csv', (c) => {
  const asked = c.req.query('state');
  const state = isFreeEntryState(asked) ? asked : undefined;
  const { entries } = adminFreeEntries(c.env.deps.db, c.env.deps.clock.now(), state, Number.MAX_SAFE_INTEGER);
  return csvAnswer(c, `free-entries-${state ?? 'all'}`, freeEntriesCsv(entries, formatDateTime));
});

/** The sections' own routes (CSV exports, actions), behind the admin gate. */
export const adminPromotionRoutes = new Hono<AppEnv>()
  .route('/', adminTeamsRoutes)
  .route('/', mysteryBoxesAdmin)
  .route('/', freeEntriesExport)
  .route('/', adminDonations);
