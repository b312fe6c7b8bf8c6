/*
 * What deleting a product does, in the words the admin's dialog and its no-JavaScript page both
 * show: a product with orders or games is archived (its history stays), one without is deleted.
 */

export interface ProductHistoryCounts {
  orders: number;
  games: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const willArchive = (history: ProductHistoryCounts) => history.orders > 0 || history.games > 0;

export function removalText(history: ProductHistoryCounts): string {
  if (!willArchive(history)) return 'This action cannot be undone. This will permanently delete the product.';
  return `This product has ${plural(history.orders, 'order')} and ${plural(history.games, 'game')}: it will be archived, not deleted. It leaves the shop; its orders and game records stay, and you can restore it from the admin list.`;
}

export const removalAction = (history: ProductHistoryCounts) => (willArchive(history) ? 'Archive' : 'Delete');
