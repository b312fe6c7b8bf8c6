import { Hono } from 'hono';
import type { Db } from '../../../../db/client.ts';
import type { AppEnv } from '../../../../http/context.ts';
import { adminTeamsRoutes, TeamsSection, type TeamsSectionData, teamsSectionData } from './teams.tsx';

/*
 * The admin's Promotions tab (issue 29 item 5): one section per way to buy the promotions add,
 * each in its own file beside this one with its own CSV export.
 */

export interface PromotionsData {
  teams: TeamsSectionData;
}

/** What the tab shows, read for GET /admin?tab=promotions (query: teams=open|filled|expired). */
export function promotionsData(db: Db, query: Record<string, string>): PromotionsData {
  return { teams: teamsSectionData(db, query.teams) };
}

export function PromotionsTab({ data }: { data: PromotionsData }) {
  return (
    <div className="grid gap-5">
      <TeamsSection data={data.teams} />
    </div>
  );
}

/** The tab's own routes (CSV exports), mounted under the admin gate. */
export const adminPromotionRoutes = new Hono<AppEnv>().route('/', adminTeamsRoutes);
