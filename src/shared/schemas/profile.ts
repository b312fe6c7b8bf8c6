import * as z from 'zod/mini';
import { stateCode } from '../us-states.ts';

/*
 * Spec section 5: profile, cart checkout form and single-product checkout rules, shared by the
 * API, the server-rendered forms and the islands. Browser-safe.
 */

const trimmed = (min: number, message: string, max = 120) =>
  z.string({ error: message }).check(z.trim(), z.minLength(min, message), z.maxLength(max, `At most ${max} characters`));
const email = z
  .string({ error: 'Please enter a valid email' })
  .check(z.trim(), z.email('Please enter a valid email'), z.maxLength(200, 'At most 200 characters'));
const phone = z
  .string({ error: 'Please enter a valid phone number' })
  .check(
    z.trim(),
    z.minLength(10, 'Please enter a valid phone number'),
    z.maxLength(30, 'Please enter a valid phone number'),
    z.regex(/^[0-9+()\-.\s]+$/, 'Please enter a valid phone number'),
  );

// An address's parts, the same rules in the profile and both checkouts (each names them its own way).
// An empty field gets the spec's words ('Address is required'); a filled one that breaks the rule
// gets the rule ('Enter your 5-digit ZIP code'), so '1' or '9265' never reads as missing.
const filled = (required: string) => z.string({ error: required }).check(z.trim(), z.minLength(1, required));
export const STREET_RULE = 'Enter your street address (number and street)';
export const CITY_RULE = 'Enter your city (at least 2 letters)';
export const STATE_RULE = 'Choose your state from the list';
export const ZIP_RULE = 'Enter your 5-digit ZIP code';
const street = (required: string) =>
  filled(required).check(z.maxLength(200, 'At most 200 characters'), z.minLength(5, STREET_RULE), z.regex(/\d/, STREET_RULE), z.regex(/\p{L}/u, STREET_RULE));
/** The apartment, suite or unit: optional, kept apart from the street. */
const line2 = z.optional(z.string({ error: 'Send the apartment as text' }).check(z.trim(), z.maxLength(100, 'At most 100 characters')));
const city = filled('City is required').check(z.maxLength(120, 'At most 120 characters'), z.minLength(2, CITY_RULE));
// A state's code or its name ('CA', 'california'), kept as the code the select sends.
const state = z.pipe(
  filled('State is required').check(z.refine((text) => stateCode(text) !== null, STATE_RULE)),
  z.transform((text) => stateCode(text) as string),
);
const postalCode = (required: string) => filled(required).check(z.regex(/^\d{5}(-\d{4})?$/, ZIP_RULE));

export const profileRules = {
  name: trimmed(2, 'Name must be at least 2 characters'),
  email,
  phone,
  address: z.object({
    line1: street('Address is required'),
    line2,
    city,
    state,
    postalCode: postalCode('Postal code is required'),
    country: z._default(trimmed(2, 'Country is required', 60), 'USA'),
  }),
  paymentType: z.string({ error: 'Payment type is required' }).check(z.minLength(2, 'Payment type is required'), z.maxLength(20, 'Payment type is required')),
};

/** The Personal tab: every personal field at once. */
export const personalSchema = z.object({
  name: profileRules.name,
  email: profileRules.email,
  phone: profileRules.phone,
  address: profileRules.address,
});

/** The cart's checkout form (spec section 5). */
export const checkoutFormSchema = z.object({
  fullName: trimmed(2, 'Full name must be at least 2 characters'),
  email,
  phone,
  address: street('Address is required'),
  address2: line2,
  city,
  state,
  zipCode: postalCode('ZIP code is required'),
  shippingMethod: z.enum(['local', 'standard', 'express'], { error: 'Please choose a shipping method' }),
});

export type CheckoutForm = z.infer<typeof checkoutFormSchema>;

/** The single-product checkout delivers only in Laguna Beach. */
export const LOCAL_ZIP = '92651';
// The second sentence is the way on (issue 27, item 6): buy now is local, the cart ships anywhere.
export const localDeliveryMessage =
  'Local Delivery Only: we only deliver within the 92651 area code (Laguna Beach). Your cart ships anywhere in the US: add the product to your cart instead.';

export const customerInfoSchema = z.object({
  name: trimmed(2, 'Name must be at least 2 characters'),
  email,
  phone,
  address: z.extend(z.omit(profileRules.address, { country: true }), {
    postalCode: z.string({ error: localDeliveryMessage }).check(
      z.trim(),
      z.refine((zip) => zip === LOCAL_ZIP, { message: localDeliveryMessage }),
    ),
  }),
});

export type CustomerInfo = z.infer<typeof customerInfoSchema>;

/** A donation's buyer: who gets the receipt. The product goes to the charity partner, so no address is asked. */
export const donorInfoSchema = z.object({
  name: customerInfoSchema.shape.name,
  email,
  phone,
});

export type DonorInfo = z.infer<typeof donorInfoSchema>;

/** PATCH /api/user/profile: only the sections sent change. */
export const profilePatchBody = z.object({
  name: z.optional(profileRules.name),
  email: z.optional(profileRules.email),
  /** Needed only when `email` replaces the address the account has. */
  currentPassword: z.optional(z.string().check(z.maxLength(128, 'Your current password is not right.'))),
  phone: z.optional(profileRules.phone),
  address: z.optional(profileRules.address),
  paymentMethod: z.optional(
    z.object({
      type: z.optional(profileRules.paymentType),
      sourceId: z.optional(z.string().check(z.maxLength(500, 'The card token is too long'))),
      token: z.optional(z.string().check(z.maxLength(500, 'The card token is too long'))),
    }),
  ),
  preferences: z.optional(
    z.object({
      receiveNotifications: z.optional(z.boolean('Must be true or false')),
      newsletterSubscription: z.optional(z.boolean('Must be true or false')),
    }),
  ),
});
export type ProfilePatch = z.infer<typeof profilePatchBody>;
