import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../../../http/context.ts';
import { adminDonations, DonationsSection, donationsData, type DonationsData } from './donations.tsx';

/*
 * The admin's Promotions tab (issue 29): one section per way to buy beyond buy now and play,
 * each in its own file with its own routes and CSV export.
 */

export interface PromotionsData {
  donations: DonationsData;
}

/** What the tab shows, read only when it is the open tab. */
export function promotionsData(deps: Pick<AppDeps, 'db' | 'config'>): PromotionsData {
  return { donations: donationsData(deps) };
}

export function PromotionsTab({ data }: { data: PromotionsData }) {
  return (
    <div className="grid gap-5">
      <DonationsSection data={data.donations} />
    </div>
  );
}

/** The sections' own routes (CSV exports, actions), behind the admin gate. */
export const adminPromotions = new Hono<AppEnv>().route('/', adminDonations);
