import { Island } from '../../components/Island.tsx';
import type { ProductTeamsView } from '../../shared/views/teams.ts';

/**
 * The product page's 'Buy with a friend' section (issue 29 item 1), for a product ticked for half
 * price: the TeamBuy island with the open teams as they are now (the page cache is renewed on
 * every team change: migration 0018's storefront triggers), kept current by the live stream.
 */
export function ProductTeamSection({ view, productName, now }: { view: ProductTeamsView | null; productName: string; now: number }) {
  if (!view) return null;
  return <Island name="TeamBuy" mode="visible" props={{ view, productName, now }} />;
}
