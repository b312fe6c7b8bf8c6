import type { ListedWay } from '../../shared/schemas/catalog.ts';
import type { ProductView } from './catalog.ts';

/*
 * Which products a way to buy starts from, for /products?way= (issue 37, item 15): a team buy on
 * a product ticked for half price with a unit left (as promotions/teams-rules.ts starts one), a
 * donation on one ticked Donate that is sold and in stock (as the product page's 'Donate this').
 * Filtered from the listing already read, so the page runs the statement it ran before.
 */
export function offersWay(product: ProductView, way: ListedWay): boolean {
  if (product.quantity <= 0) return false;
  return way === 'team' ? product.halfPriceEnabled : product.donateEnabled && product.buyNowEnabled;
}

export const wayTitles: Record<ListedWay, { title: string; intro: string; empty: string }> = {
  team: {
    title: 'Team buys',
    empty: 'No product can be bought as a team right now. Check back soon!',
    intro:
      'Start a team on a product below and share its link: we hold half the price (plus tax) on your card, and when a friend joins within 24 hours you each pay half and each get your own. If nobody joins, the hold is released.',
  },
  donate: {
    title: 'Buy to donate',
    empty: 'No product can be donated right now. Check back soon!',
    intro: "Buy one of these for our charity partner: you pay as for Pay Now, no address is asked, and we hand it over. Choose 'Donate this' on its page.",
  },
};
