import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../../../http/context.ts';
import { MysteryBoxesSection, mysteryBoxesAdmin } from './boxes.tsx';

/*
 * The admin's Promotions tab (issue 29, item 5): one section per way to buy beyond Buy Now, each
 * in its own file with its own form posts and CSV export.
 */

export function PromotionsTab<E extends AppEnv>({ c }: { c: AppContext<E> }) {
  return (
    <div className="grid gap-5" data-tab="promotions">
      <h2 className="m-0 text-xl font-extrabold">Promotions</h2>
      <MysteryBoxesSection c={c} />
    </div>
  );
}

/** The sections' routes, mounted behind the admin gate. */
export const promotionsAdmin = new Hono<AppEnv>().route('/', mysteryBoxesAdmin);
