/** Dispatched on window by an island after the server wrote a notification for this user. */
export const NOTIFICATIONS_CHANGED = 'csa:notifications';
