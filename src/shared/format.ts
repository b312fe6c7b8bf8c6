/*
 * Number formats the server pages and the islands both print.
 */

/** Spec section 9: scores compact with K (thousands) and M (millions), 1 decimal place. */
export function formatCompactScore(score: number | null | undefined): string {
  const value = Number.isFinite(score) ? (score as number) : 0;
  const size = Math.abs(value);
  // Thresholds sit where rounding to 1 decimal would reach the next unit (999.96 is '1.0K').
  if (size >= 999_950) return `${(value / 1_000_000).toFixed(1)}M`;
  if (size >= 999.95) return `${(value / 1_000).toFixed(1)}K`;
  return value.toFixed(1);
}

/** '2.4M' → 2 400 000; plain numbers are read as they are. */
export function parseFollowers(text: string): number {
  const match = /^\s*([\d.]+)\s*([KMB])?\s*$/i.exec(text ?? '');
  if (!match) return 0;
  const scale = { K: 1e3, M: 1e6, B: 1e9 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'B'] ?? 1;
  return Math.round(Number(match[1]) * scale);
}

/** 2 400 000 → '2.4M' (spec section 3: K, M and B suffixes). */
export function formatFollowers(count: number): string {
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (count >= size) return `${Number((count / size).toFixed(1))}${suffix}`;
  }
  return String(count);
}

/** How long ago, in words: 'less than a minute', '1 minute', '12 minutes', '1 hour', '5 hours', '2 days'. */
export function elapsedText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const [count, unit] = minutes < 60 ? [minutes, 'minute'] : minutes < 48 * 60 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
