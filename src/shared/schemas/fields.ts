import * as z from 'zod/mini';

/*
 * The small field rules every request schema is built from (browser-safe). The rule for
 * numbers: a JSON body carries JSON numbers; only form posts (and the ids the spec sends as
 * strings) may carry them as plain decimal text. Hex, exponents, signs, spaces, booleans and
 * arrays are never read as numbers.
 */

/** A database id in a JSON body: a positive safe integer. */
export const id = (message = 'Must be a positive whole number') => z.int({ error: message }).check(z.gte(1, message), z.lte(Number.MAX_SAFE_INTEGER, message));

export const CHOOSE_PRODUCT = 'Choose a product by its id.';

/** A variant (a size) named by its id: required by the domain when a product has more than one. */
export const CHOOSE_SIZE_ID = 'Choose a size by its id.';

export const DECIMAL_ID = /^[1-9][0-9]{0,15}$/;

/** An id the spec lets clients send as a number or as its decimal text ("12", never "012" or "0x0c"). */
export const idOrText = (message = 'Must be a positive whole number') =>
  z
    .pipe(
      z.union([id(message), z.string({ error: message }).check(z.regex(DECIMAL_ID, message))], { error: message }),
      z.transform((value) => Number(value)),
      // "9007199254740993" passes the pattern; it must still be an exact integer.
    )
    .check(z.refine((n) => Number.isSafeInteger(n), message));

/** A path segment `:id`. Anything else is answered 404 by the caller, as a missing row. */
export const idParam = z.object({ id: z.string().check(z.regex(DECIMAL_ID)) });

/** A whole number posted by an HTML form: decimal digits only, then checked against a range. */
export const formInt = (min: number, max: number, message: string) =>
  z
    .pipe(
      z.string({ error: message }).check(z.trim(), z.regex(/^[0-9]{1,9}$/, message)),
      z.transform((text) => Number(text)),
    )
    .check(z.refine((n) => n >= min && n <= max, message));

/** A text field of a form post: absent, or one piece of text of at most `max` characters (never a repeated field or a file). */
export const formText = (max: number) =>
  z.optional(z.string({ error: 'Send this field once, as text.' }).check(z.maxLength(max, `At most ${max} characters.`)));

/** A file field of a form post: absent, a file, or the empty text a browser sends for no file. */
export const formFile = z.optional(z.union([z.file(), z.literal('')], { error: 'Send this field as a file.' }));
