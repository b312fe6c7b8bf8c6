import * as z from 'zod/mini';

/*
 * The mystery box calls' bodies (browser-safe): the purchase names what the shopper saw (the
 * box's commitment and price, both optional: sent, the server refuses a draw that would differ),
 * a tee or shoe box its size; the admin's price is dollars like a product's.
 */

const PRICE = 'Enter the box price in dollars, from $0.01 to $100,000.';
const SIZE = 'size is the size as text, such as "M" or "10".';

/** POST /api/mystery-boxes/{type}/orders */
export const boxOrderBody = z.object(
  {
    seedHash: z.optional(
      z
        .string({ error: 'seedHash is the 64-character hash the box shows.' })
        .check(z.regex(/^[0-9a-f]{64}$/, 'seedHash is the 64-character hash the box shows.')),
    ),
    price: z.optional(z.number({ error: PRICE }).check(z.gte(0.01, PRICE), z.lte(100_000, PRICE))),
    /** Tee and shoe boxes: the size as text ('M', '10'); required for those, refused for the others. */
    size: z.optional(z.string({ error: SIZE }).check(z.maxLength(20, SIZE))),
  },
  { error: 'Send the purchase as a JSON object (it may be empty for a box without sizes).' },
);
export type BoxOrderBody = z.infer<typeof boxOrderBody>;

/** PUT /api/admin/mystery-boxes/{type} */
export const boxPriceBody = z.object(
  { price: z.number({ error: PRICE }).check(z.gte(0.01, PRICE), z.lte(100_000, PRICE)) },
  { error: 'Send the price as a JSON object: {"price": 12.5}.' },
);

/** The admin page's form: the same price, typed. */
export const boxPriceForm = z.object({
  price: z
    .pipe(
      z.string(),
      z.transform((text) => Number(text.trim() === '' ? Number.NaN : text)),
    )
    .check(z.refine((n) => Number.isFinite(n) && n >= 0.01 && n <= 100_000, PRICE)),
});
