import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../../../http/context.ts';
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

export function PromotionsTab({ data }: { data: PromotionsData }) {
  return (
    <div className="grid gap-5">
      <TeamsSection data={data.teams} />
      <DonationsSection data={data.donations} />
    </div>
  );
}

/** The sections' own routes (CSV exports, actions), behind the admin gate. */
export const adminPromotionRoutes = new Hono<AppEnv>().route('/', adminTeamsRoutes).route('/', adminDonations);
