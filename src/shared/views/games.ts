import type { PrizeDelivery } from '../prize-delivery.ts';
/*
 * The game data the server sends and the game islands read: GET /api/influencers, GET
 * /api/products/{id}/competition, and the Play Now page's props.
 */

/** Spec section 4: the panel's fallback when the game names no required count. */
export const DEFAULT_REQUIRED_PARTICIPANTS = 10;

/** This minute's figures of one platform of an influencer. */
export interface PlatformMetrics {
  followers: number;
  engagement: number;
  growth: number;
  posts: number;
}

/** One pickable influencer (GET /api/influencers). */
export interface InfluencerView {
  id: number;
  name: string;
  handle: string;
  avatar: string;
  category: string;
  engagementRate: number;
  /** Platform to followers text ('2.4M'). */
  platforms: Record<string, string>;
  metrics: Record<string, PlatformMetrics>;
  totalFollowers: number;
  /** Points over the last hour, to 1 decimal. */
  score: number;
}

export interface CompetitionPlay {
  id: number;
  userId: number;
  /** The name every page shows for this player (the viewer's own line reads 'You'). */
  username: string;
  /** Null until the game has started: nobody's picks are public while it waits. */
  influencerIds: string[] | null;
  score: number | null;
  createdAt: number;
}

/** GET /api/products/{id}/competition. */
export interface CompetitionData {
  /** A play would find a game of this product now (domain/games/openness.ts): the panel's Play Now. */
  canJoin?: boolean;
  gameId: number | null;
  /** The size the shown game is for ('M'), for a product sold in several sizes (issue 38); absent otherwise. */
  size?: string;
  gameStatus: 'waiting' | 'active' | 'completed';
  startTime: number | null;
  endTime: number | null;
  requiredParticipants?: number | null;
  participants: number;
  winnerPlayId?: number | null;
  plays: CompetitionPlay[];
  metrics: { influencerId: string; totalScore: number }[];
  /** Commit and reveal: public from the start; the seed once the game is over. */
  seedHash?: string | null;
  seed?: string | null;
  /** Where the next entrant goes when this game is full or live. */
  nextGame?: { id: number; participants: number; requiredParticipants: number } | null;
}

/** The Play Now page's island props. */
export interface PlayGameProps {
  product: {
    id: number;
    /** Brand, or a book's title. */
    brand: string;
    /** Model, or 'by {author}' for books. */
    subtitle: string;
    price: number;
    /** The image as the page shows it (local images carry their `?fallback=` type). */
    imageUrl: string;
    /** The type's default image, for an image from another site that may break. */
    fallbackImageUrl: string | null;
    playEnabled: boolean;
    quantity: number;
  };
  /** The game a play joins now: its entries so far and the players it needs; `afterFull` when an earlier game is full. */
  game: { entries: number; requiredParticipants: number; live: boolean; afterFull?: boolean };
  influencers: InfluencerView[];
  signedIn: boolean;
  hasCard: boolean;
  /** Where a prize could go, from the player's profile ZIP (prizes are delivered in 92651 only); 'unknown' when signed out or without one. */
  prizeDelivery?: PrizeDelivery;
  /** Responsible play: consent given once; why the player may not enter now (self-excluded, daily limit), if so. */
  play?: { consented: boolean; blocked: string | null };
  /** Buy one, play free: how many free entries the player may use now, and when the first of them expires. */
  freeEntries?: { count: number; expiresAt: number | null };
  /** The size the game is for (issue 38), when chosen (the product page's picker, or `?size=M`). */
  variantId?: number;
  /** A product sold in several sizes: each with why its game is closed, if so; absent for one size. */
  sizes?: { variantId: number; size: string; soldOut: boolean; closed: string | null }[];
  /** The server's words for a join without a size ('Choose a size: S, M or L.'), beside `sizes`. */
  chooseSizeMessage?: string;
}
