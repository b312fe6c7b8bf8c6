/*
 * Team buys as the API sends them and the islands read them (browser-safe: no imports).
 * Money in dollars, times in epoch milliseconds.
 */

export type TeamStatusView = 'starting' | 'open' | 'joining' | 'capturing' | 'filled' | 'expired' | 'cancelled';

/** An open team on a product page: who started it (masked) and when it ends. */
export interface OpenTeamView {
  code: string;
  starterName: string;
  expiresAt: number;
  /** The size the team is for ('M'), or '' when the product is not sold by size (issue 38). */
  sizeLabel?: string;
}

/** GET /api/teams/{code}. */
export interface TeamView {
  code: string;
  status: TeamStatusView;
  expiresAt: number;
  product: { id: number; name: string; imageUrl: string; price: number };
  /** Each member's share: half the price, its tax, and what is held then charged (the two). */
  pricePerMember: number;
  taxPerMember: number;
  totalPerMember: number;
  size: number;
  /** The size the team is for ('M'): the joiner takes this size. '' when the product is not sold by size (issue 38). */
  sizeLabel: string;
  starterName: string;
  /** `you`: this member is the viewer (said so on the page, where a masked name would not tell them). */
  members: { name: string; role: 'starter' | 'joiner'; you?: boolean }[];
  /** Whether the signed-in viewer is in it (always false for a visitor). */
  viewerIsMember: boolean;
  viewerIsStarter: boolean;
  /** The viewer's own order once their half was charged (the starter's as well as the joiner's); null before, or for a non-member. */
  viewerOrderId?: number | null;
}

/** The product page's section: its share per member and the open teams to join. */
export interface ProductTeamsView {
  productId: number;
  pricePerMember: number;
  totalPerMember: number;
  teams: OpenTeamView[];
  /** In a signed-in shopper's own read (GET /api/products/{id}/teams): their team waiting for a friend, or null. */
  yourTeamCode?: string | null;
}

/** 'Buy with a friend for $12.50' and the like. */
export function dollarsText(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}

/** '23h 5m left', '4m left', 'ended': the time left shown beside a team. */
export function timeLeftText(expiresAt: number, now: number): string {
  const ms = expiresAt - now;
  if (ms <= 0) return 'ended';
  const minutes = Math.ceil(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}h ${minutes % 60}m left` : `${minutes}m left`;
}

/** The team page's one-line state (the TeamJoin island keeps it true after a join). */
export function teamStateLine(status: TeamView['status'], expiresAt: number, now: number): string {
  switch (status) {
    case 'open':
      return `Open: ${timeLeftText(expiresAt, now)} for a friend to join.`;
    case 'joining':
    case 'capturing':
      return 'Someone is joining this team right now.';
    case 'filled':
      return 'This team is full: both members bought at half price.';
    case 'expired':
      return 'This team has expired: nobody joined within 24 hours.';
    case 'cancelled':
      return 'This team was closed.';
    default:
      return 'This team is being started.';
  }
}
