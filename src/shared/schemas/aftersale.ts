import * as z from 'zod/mini';

/*
 * After the sale (browser-safe): an admin's refund, a shopper's return request, a shipment.
 * The admin forms post the same names; a form's amount is dollars text, the API's is cents.
 */

export const CARRIERS = ['USPS', 'UPS', 'FedEx', 'DHL'] as const;
export type Carrier = (typeof CARRIERS)[number];

const reason = (what: string) =>
  z
    .string({ error: `Say why ${what}.` })
    .check(z.trim(), z.minLength(3, `Say why ${what} (at least 3 characters).`), z.maxLength(500, 'At most 500 characters.'));

const AMOUNT_MESSAGE = 'Enter the amount to refund in cents, a whole number of at least 1.';

/** POST /api/admin/orders/{id}/refund: no amount refunds everything still refundable. */
export const refundBody = z.object({
  amountCents: z.optional(z.int({ error: AMOUNT_MESSAGE }).check(z.gte(1, AMOUNT_MESSAGE), z.lte(100_000_000, AMOUNT_MESSAGE))),
  reason: reason('the order is refunded'),
});

const DOLLARS_MESSAGE = 'Enter the amount in dollars, such as 12.50, or leave it empty to refund the rest.';

/** The Orders tab's refund form: dollars as typed ('12.5', '$12.50'), empty for everything left; its one-time key. */
export const refundForm = z.object({
  amount: z.optional(z.string().check(z.trim(), z.regex(/^(\$?\s*[0-9]{1,7}(\.[0-9]{1,2})?)?$/, DOLLARS_MESSAGE))),
  reason: reason('the order is refunded'),
  key: z.optional(z.string().check(z.maxLength(100))),
  /** 'yes' once the admin confirmed on the confirmation step; without it nothing changes. */
  confirmed: z.optional(z.string().check(z.maxLength(3))),
});

/** '12.5' -> 1250; '' -> undefined (everything left). */
export function dollarsTextToCents(text: string | undefined): number | undefined {
  const clean = text?.replace(/[$\s]/g, '') ?? '';
  if (clean === '') return undefined;
  const [whole, part = ''] = clean.split('.');
  return Number(whole) * 100 + Number(part.padEnd(2, '0'));
}

/** POST /api/orders/{id}/return-request and the order page's form. */
export const returnRequestBody = z.object({ reason: reason('you want to return it') });

const TRACKING_MESSAGE = 'Enter the tracking number as the carrier gives it: 6 to 40 letters and digits.';

/** POST /api/admin/orders/{id}/ship and the Orders tab's Ship form. */
export const shipBody = z.object({
  carrier: z.enum(CARRIERS, { error: 'Choose the carrier: USPS, UPS, FedEx or DHL.' }),
  trackingNumber: z.string({ error: TRACKING_MESSAGE }).check(
    z.trim(),
    z.overwrite((v) => v.replace(/[\s-]/g, '').toUpperCase()),
    z.regex(/^[A-Z0-9]{6,40}$/, TRACKING_MESSAGE),
  ),
});

/** Where the shopper follows a parcel. */
export function trackingUrl(carrier: string, trackingNumber: string): string | null {
  const n = encodeURIComponent(trackingNumber);
  switch (carrier) {
    case 'USPS':
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`;
    case 'UPS':
      return `https://www.ups.com/track?tracknum=${n}`;
    case 'FedEx':
      return `https://www.fedex.com/fedextrack/?trknbr=${n}`;
    case 'DHL':
      return `https://www.dhl.com/us-en/home/tracking/tracking-express.html?tracking-id=${n}`;
    default:
      return null;
  }
}
