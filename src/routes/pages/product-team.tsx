import { Island } from '../../components/Island.tsx';
import type { ProductTeamsView } from '../../shared/views/teams.ts';

/**
 * The product page's 'Buy with a friend' section (issue 29 item 1), for a product ticked for half
 * price, with the open teams as they are now (the page cache is renewed on every team change:
 * the teams migration's storefront triggers). A signed-in shopper gets the TeamBuy island, kept
 * current by the live stream; a visitor gets the same section rendered on the server alone, its
 * Start a sign-in link and each open team a link to its page, so no visitor's product page ships
 * more JavaScript than it did before teams existed.
 */
export function ProductTeamSection({
  view,
  productName,
  now,
  signedIn,
  variantId,
  sizeLabel,
  needsSize,
}: {
  view: ProductTeamsView | null;
  productName: string;
  now: number;
  signedIn: boolean;
  /** The size chosen in the product page's picker (issue 38): a team started here is for it. */
  variantId?: number;
  /** That size's label ('M'), said on the Start button. */
  sizeLabel?: string;
  /** Several sizes and none chosen: the Start button says 'Choose a size' and waits. */
  needsSize?: boolean;
}) {
  if (!view) return null;
  if (!signedIn) {
    const signInHref = `/auth?next=${encodeURIComponent(`/product/${view.productId}`)}`;
    return <Island name="TeamBuy" mode="never" props={{ view, productName, now, signInHref, variantId }} />;
  }
  return <Island name="TeamBuy" mode="visible" props={{ view, productName, now, variantId, sizeLabel, needsSize }} />;
}
