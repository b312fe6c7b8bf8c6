import * as z from 'zod/mini';
import { CHOOSE_PRODUCT, CHOOSE_SIZE_ID, DECIMAL_ID, formInt, idOrText } from './fields.ts';

/*
 * Request bodies of the game calls (POST /api/plays, /api/payments) and of responsible play
 * (/api/user/play-consent, play-limits, self-exclusion, and the profile's Play tab forms).
 * Browser-safe.
 */

export const INFLUENCERS_PER_PLAY = 5;
export const PICK_FIVE = 'Please select exactly 5 influencers.';
/** The most entries a day any store allows; the store's own limit may be lower. */
export const MAX_DAILY_ENTRY_LIMIT = 10;
export const EXCLUSION_PERIODS = ['30d', '6m', 'permanent'] as const;

/** Sent with the play and its payment: whether a win goes to charity (required outside 92651, shared/prize-delivery.ts). */
const donateIfWon = z.optional(z.boolean({ error: 'donateIfWon must be true or false.' }));

/**
 * The size the game is for (issue 38): required by the domain when the product has several
 * (inventory/variants.ts chooseVariant), optional otherwise.
 */
const variantId = z.optional(idOrText(CHOOSE_SIZE_ID));

/** POST /api/plays: the spec sends the ids as strings; numbers are read too. */
export const playBody = z.object({
  productId: idOrText(CHOOSE_PRODUCT),
  variantId,
  // Any wrong id, count or repeat is the one message the Play page shows next to the picks.
  influencerIds: z
    .pipe(
      z.array(z.unknown(), { error: PICK_FIVE }),
      z.transform((ids) =>
        ids.map((value) => (typeof value === 'number' || (typeof value === 'string' && DECIMAL_ID.test(value)) ? Number(value) : Number.NaN)),
      ),
    )
    .check(
      z.refine(
        (ids) => ids.length === INFLUENCERS_PER_PLAY && ids.every((n) => Number.isSafeInteger(n) && n > 0) && new Set(ids).size === ids.length,
        PICK_FIVE,
      ),
    ),
  donateIfWon,
});
export type PlayBody = z.infer<typeof playBody>;

const ENTRY_COSTS = 'A game entry costs $1.';

/** POST /api/payments: the $1 entry, or (useFreeEntry: true) a free entry of 'Buy one, play free' instead, with no amount. */
export const entryPaymentBody = z
  .object({
    productId: idOrText(CHOOSE_PRODUCT),
    /** Which size's pending play is paid for, when the player picked for several; else the latest pick. */
    variantId,
    amount: z.optional(z.literal(1, { error: ENTRY_COSTS })),
    type: z.literal('play', { error: "Only game entries are paid here (type 'play')." }),
    useFreeEntry: z.optional(z.boolean({ error: 'useFreeEntry must be true or false.' })),
    donateIfWon,
  })
  .check(z.refine((body) => body.useFreeEntry === true || body.amount === 1, { error: ENTRY_COSTS, path: ['amount'] }));
export type EntryPaymentBody = z.infer<typeof entryPaymentBody>;

/** POST /api/user/play-consent: both answers an explicit true. */
export const playConsentBody = z.object({
  adult: z.literal(true, { error: 'You must be 18 or older to play.' }),
  acceptRules: z.literal(true, { error: 'Please accept the official rules to play.' }),
});

const limitMessage = `Choose a daily entry limit from 1 to ${MAX_DAILY_ENTRY_LIMIT}.`;
/** PUT /api/user/play-limits */
export const playLimitsBody = z.object({
  dailyEntryLimit: z.int({ error: limitMessage }).check(z.gte(1, limitMessage), z.lte(MAX_DAILY_ENTRY_LIMIT, limitMessage)),
});

/** The Play tab's daily-limit form (POST /profile/play-limit). */
export const playLimitForm = z.object({ dailyEntryLimit: formInt(1, MAX_DAILY_ENTRY_LIMIT, limitMessage) });

const periodMessage = "Choose a period: '30d', '6m' or 'permanent'.";
/** POST /api/user/self-exclusion, and the Play tab's form. */
export const selfExclusionBody = z.object({ period: z.enum(EXCLUSION_PERIODS, { error: periodMessage }) });

/** POST /api/test/clock (CLOCK=manual only). */
export const testClockBody = z.union(
  [z.object({ now: z.int().check(z.gte(0)) }), z.object({ advanceMs: z.int().check(z.gte(0), z.lte(366 * 24 * 3_600_000)) })],
  { error: 'Send { "advanceMs": n } (n >= 0) or { "now": epochMs }.' },
);

/** The Play tab's self-exclusion form: the period and the 'I understand' box. */
export const selfExclusionForm = z.object({
  period: z.enum(EXCLUSION_PERIODS, { error: periodMessage }),
  confirm: z.optional(z.literal('yes', { error: 'Please confirm that you understand this cannot be undone.' })),
});
