/** What a notification is about (the bell's icons and the e-mail of a later issue key on it). */
export const NOTIFICATION_TYPES = [
  'game_ready',
  'game_started',
  'game_ended',
  'game_won',
  'game_lost',
  'payment_success',
  'payment_failed',
  'order_status',
  /** For admins: a payment that needs a person (a hold that could not be captured, ...). */
  'admin_alert',
  /** Auctions (issue 28): outbid, and the outcome at the end. */
  'auction_outbid',
  'auction_ended',
  /** Team buys (issue 29): started, full (both paid), or over with nobody joining. */
  'team_update',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One notification as GET /api/notifications sends it and the bell shows it. */
export interface NotificationView {
  id: number;
  type: NotificationType;
  title: string;
  message: string;
  actionUrl: string | null;
  actionText: string | null;
  productId: number | null;
  gameId: number | null;
  timestamp: number;
  read: boolean;
}
