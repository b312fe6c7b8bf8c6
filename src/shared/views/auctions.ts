/*
 * The auction data the server sends and the auction panel reads: GET /api/products/{id}/auction,
 * the live `event: auction` (the same view without the viewer's own fields), and the panel's props.
 */

export type PublicAuctionStatus = 'scheduled' | 'running' | 'ended' | 'unsold' | 'cancelled';

/** What an ended auction waits on this viewer to pay: the winner after a decline, or the runner-up's offer. */
export interface AuctionPayment {
  kind: 'retry' | 'second_chance';
  /** What the card is charged: the price plus tax (delivery is free, local). */
  amount: number;
  /** The price before tax. */
  price: number;
  dueAt: string;
}

export interface AuctionView {
  status: PublicAuctionStatus;
  currentPrice: number | null;
  /** The least the next bid may be. */
  minimumBid: number;
  bidCount: number;
  /** The size it sells ('M'), or '' when the product is not sold by size (issue 38). */
  size: string;
  startsAt: string;
  endsAt: string;
  hasReserve: boolean;
  reserveMet: boolean;
  /** True for the signed-in leader. */
  leading: boolean;
  /** True when Buy Now is offered beside the auction: the admin kept it and nobody has bid. */
  buyNowOffered: boolean;
  bids: { bidder: string; amount: number; at: string }[];
  /** The server's clock when the view was made: the panel counts down by it, not by the device's clock. */
  now: string;
  /*
   * The signed-in viewer's own standing: present only in their own GET, never in the broadcast
   * nor in anyone else's view.
   */
  /** The viewer has a maximum in this auction. */
  youBid?: boolean;
  /** The viewer's best maximum, null when they have not bid. */
  yourMaximum?: number | null;
  /** The auction owes this viewer a payment step; null when it does not. */
  payment?: AuctionPayment | null;
}

/** Soft close, in the words /auctions and the product page's panel both use (issue 37 item 7). */
export const SOFT_CLOSE_TEXT = 'A bid in the last 2 minutes moves the end to 2 minutes after it, so nobody wins by sniping.';
/** What 'Reserve not met' means, said where people bid (the amount itself stays secret). */
export const RESERVE_TEXT = 'The seller set a secret reserve price: the item sells only when the bidding reaches it.';

/** The live stream's `event: auction`. */
export interface AuctionEvent {
  productId: number;
  auction: AuctionView;
}
