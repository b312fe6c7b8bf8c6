/** Dispatched on window by an island after the server wrote a notification for this user. */
export const NOTIFICATIONS_CHANGED = 'csa:notifications';

/**
 * Dispatched on window by the bell with the list it read by polling (`detail`: the notifications),
 * so the win moment also comes when the live stream cannot connect.
 */
export const NOTIFICATIONS_POLLED = 'csa:notifications-polled';
