import { Hono } from 'hono';
import type { AppContext, AppDeps, AppEnv } from '../../../../http/context.ts';
import { MysteryBoxesSection, mysteryBoxesAdmin } from './boxes.tsx';
import { adminDonations, DonationsSection, donationsData, type DonationsData } from './donations.tsx';
import { adminTeamsRoutes, TeamsSection, type TeamsSectionData, teamsSectionData } from './teams.tsx';

/*
 * The admin's Promotions tab (issue 29 item 5): one section per way to buy beyond buy now and
 * play, each in its own file beside this one with its own routes and CSV export.
 */

export interface PromotionsData {
  teams: TeamsSectionData;
  donations: DonationsData;
}

/** What the tab shows, read only when it is the open tab (query: teams=open|filled|expired). */
export function promotionsData(deps: Pick<AppDeps, 'db' | 'config'>, query: Record<string, string>): PromotionsData {
  return { teams: teamsSectionData(deps.db, query.teams), donations: donationsData(deps) };
}

/** The mystery boxes' section reads its own data from the request (its forms post back to it). */
export function PromotionsTab<E extends AppEnv>({ data, c }: { data: PromotionsData; c: AppContext<E> }) {
  return (
    <div className="grid gap-5" data-tab="promotions">
      <h2 className="m-0 text-xl font-extrabold">Promotions</h2>
      <TeamsSection data={data.teams} />
      <MysteryBoxesSection c={c} />
      <DonationsSection data={data.donations} />
    </div>
  );
}

/** The sections' own routes (CSV exports, actions), behind the admin gate. */
export const adminPromotionRoutes = new Hono<AppEnv>().route('/', adminTeamsRoutes).route('/', mysteryBoxesAdmin).route('/', adminDonations);
