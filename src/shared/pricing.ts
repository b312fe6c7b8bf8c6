/*
 * Spec section 9: standard shipping $5.99 (5-7 business days), express $12.99 (2-3 business
 * days), tax 8% of the subtotal. Single-product checkout ships free (local delivery in 2-3 hours),
 * and so does a cart going to a 92651 address that keeps the local delivery chosen for it.
 * Browser-safe: the cart island shows the same totals the server will charge.
 */

export const TAX_RATE = 0.08;

/** The store's own local delivery (Pay, prizes, and a cart going to 92651): free, within 2-3 hours, ZIP 92651 (spec section 1). */
export const LOCAL_DELIVERY = { label: 'Automatic Delivery - Free (within 2-3 hours)', zip: '92651' } as const;

export const shippingMethods = {
  local: { label: LOCAL_DELIVERY.label, detail: `Laguna Beach (${LOCAL_DELIVERY.zip}) addresses only`, cents: 0 },
  standard: { label: 'Standard Shipping', detail: '5-7 business days', cents: 599 },
  express: { label: 'Express Shipping', detail: '2-3 business days', cents: 1299 },
} as const;
export type ShippingMethod = keyof typeof shippingMethods;

/** Whether an address's ZIP is in the local delivery area (ZIP+4 included). */
export function isLocalZip(zip: string | null | undefined): boolean {
  return (zip ?? '').trim().slice(0, 5) === LOCAL_DELIVERY.zip;
}

/**
 * The cart's delivery choices for an address (issue 37: the product page promised free delivery
 * in 92651 and the cart then asked $5.99): in 92651 the free local delivery comes first and is
 * chosen; elsewhere the carriers. The server checks the choice against the address it ships to.
 */
export function shippingChoicesFor(zip: string | null | undefined): ShippingMethod[] {
  return isLocalZip(zip) ? ['local', 'standard', 'express'] : ['standard', 'express'];
}

export function defaultShippingFor(zip: string | null | undefined): ShippingMethod {
  return shippingChoicesFor(zip)[0]!;
}

export interface Totals {
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/**
 * What the cart's delivery costs: the chosen method's price when the cart holds something to
 * ship; nothing when it holds only prizes, which the store delivers itself.
 */
export function cartShippingCents(lines: { type: 'regular' | 'play' }[], method: ShippingMethod): number {
  return lines.some((line) => line.type === 'regular') ? shippingMethods[method].cents : 0;
}

export function totalsFor(lines: { priceCents: number; quantity: number }[], shippingCents: number): Totals {
  const subtotalCents = lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
  const taxCents = Math.round(subtotalCents * TAX_RATE);
  return { subtotalCents, shippingCents, taxCents, totalCents: subtotalCents + shippingCents + taxCents };
}

/** Totals in dollars, as the API shows them. */
export function totalsInDollars(totals: Totals) {
  return {
    subtotal: totals.subtotalCents / 100,
    shipping: totals.shippingCents / 100,
    tax: totals.taxCents / 100,
    total: totals.totalCents / 100,
  };
}

/** True when a client's summary (dollars) matches ours to the cent. */
export function summaryMatches(summary: unknown, totals: Totals): boolean {
  if (!summary || typeof summary !== 'object') return false;
  const s = summary as Record<string, unknown>;
  const cents = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 100) : Number.NaN);
  return (
    cents(s.subtotal) === totals.subtotalCents &&
    cents(s.shipping) === totals.shippingCents &&
    cents(s.tax) === totals.taxCents &&
    cents(s.total) === totals.totalCents
  );
}

export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
