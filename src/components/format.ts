import { formatStoreDateTime } from '../shared/store-time.ts';

/** Dates as the store's customers read them: in Laguna Beach time, named (DESIGN section 2; src/shared/store-time.ts). */
export function formatDateTime(epochMs: number): string {
  return formatStoreDateTime(epochMs);
}

/** Spec section 4: completed green, processing blue, anything else pink. */
export function orderStatusClass(status: string): string {
  if (status === 'completed') return 'bg-emerald-100 text-emerald-800';
  if (status === 'processing') return 'bg-sky-100 text-sky-800';
  if (status === 'shipped') return 'bg-indigo-100 text-indigo-800';
  return 'bg-pink-100 text-pink-800';
}

export const orderStatusLabel: Record<string, string> = {
  pending: 'Payment pending',
  processing: 'Processing',
  shipped: 'Shipped',
  completed: 'Delivered',
  failed: 'Payment failed',
  canceled: 'Canceled',
};

/** A count on a badge (the bell, the cart, the bottom bar): more than 9 reads 9+. */
export function badgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}
