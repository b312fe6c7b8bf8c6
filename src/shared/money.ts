/** Money is integer cents inside; dollars with 2 decimals at the edges (DESIGN section 3). */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export function formatDollars(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}
