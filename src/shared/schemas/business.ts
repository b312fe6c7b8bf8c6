import * as z from 'zod/mini';
import { formText } from './fields.ts';
import { profileRules } from './profile.ts';

/*
 * Spec sections 3 and 5: the business (partner) application and its rules, shared by the API,
 * the server-rendered form and the island. Browser-safe.
 */

/** The six business types of spec section 3 (the same list as the table's `businessTypes`). */
export const businessTypes = ['retail', 'restaurant', 'gallery', 'service', 'hotel', 'other'] as const;
export type BusinessType = (typeof businessTypes)[number];

export const businessTypeLabels: Record<BusinessType, string> = {
  retail: 'Retail Store',
  restaurant: 'Restaurant',
  gallery: 'Art Gallery',
  service: 'Service Provider',
  hotel: 'Hotel/Accommodation',
  other: 'Other',
};

/** The portal is for Laguna Beach businesses only: the city is read-only and always stored as this. */
export const BUSINESS_CITY = 'Laguna Beach';

/** Spec section 9: how soon the store answers an application. */
export const BUSINESS_REPLY_TIME = 'within 2-3 business days';

export const businessMessages = {
  businessName: 'Business name must be at least 2 characters',
  contactName: 'Contact name must be at least 2 characters',
  email: 'Please enter a valid email',
  phone: 'Please enter a valid phone number',
  address: 'Address is required',
  zipCode: 'Valid ZIP code is required',
  businessType: 'Please select a business type',
  description: 'Please provide a brief description of your business',
  website: 'Please enter a valid website address, such as https://example.com',
  instagramHandle: 'Please enter a valid Instagram handle, such as @yourbusiness',
  termsAgreed: 'You must agree to the terms and conditions',
} as const;

export const BUSINESS_LIMITS = {
  businessName: 120,
  contactName: 120,
  address: 200,
  description: 2000,
  website: 300,
  instagramHandle: 31,
} as const;

const trimmed = (min: number, message: string, max: number) =>
  z.string({ error: message }).check(z.trim(), z.minLength(min, message), z.maxLength(max, `At most ${max} characters`));

/** A web address with or without its scheme: example.com, www.example.com/menu, https://example.com. */
const WEBSITE = /^(https?:\/\/)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?([/?#][^\s]*)?$/i;
/** Instagram usernames: letters, digits, dots and underscores, at most 30, with an optional @. */
const INSTAGRAM = /^@?[a-z0-9._]{1,30}$/i;

/** An optional text: blank means not given; otherwise it must pass `valid`. */
const optionalText = (max: number, message: string, valid: RegExp) =>
  z.optional(
    z.string({ error: message }).check(
      z.trim(),
      z.maxLength(max, `At most ${max} characters`),
      z.refine((value) => value === '' || valid.test(value), { message }),
    ),
  );

/** Spec section 5's rules; the city is not taken from the input (it is always Laguna Beach). */
export const businessApplicationSchema = z.object({
  businessName: trimmed(2, businessMessages.businessName, BUSINESS_LIMITS.businessName),
  contactName: trimmed(2, businessMessages.contactName, BUSINESS_LIMITS.contactName),
  email: profileRules.email,
  phone: profileRules.phone,
  address: trimmed(5, businessMessages.address, BUSINESS_LIMITS.address),
  zipCode: z.string({ error: businessMessages.zipCode }).check(z.trim(), z.regex(/^\d{5}(-\d{4})?$/, businessMessages.zipCode)),
  businessType: z.enum(businessTypes, { error: businessMessages.businessType }),
  description: trimmed(10, businessMessages.description, BUSINESS_LIMITS.description),
  website: optionalText(BUSINESS_LIMITS.website, businessMessages.website, WEBSITE),
  instagramHandle: optionalText(BUSINESS_LIMITS.instagramHandle, businessMessages.instagramHandle, INSTAGRAM),
  termsAgreed: z.literal(true, { error: businessMessages.termsAgreed }),
});

export type BusinessApplicationInput = z.infer<typeof businessApplicationSchema>;

/** The form's fields as typed (strings, and the checkbox as a boolean). */
export interface BusinessFormValues {
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  zipCode: string;
  businessType: string;
  description: string;
  website: string;
  instagramHandle: string;
  termsAgreed: boolean;
}

export const emptyBusinessForm: BusinessFormValues = {
  businessName: '',
  contactName: '',
  email: '',
  phone: '',
  address: '',
  zipCode: '',
  businessType: '',
  description: '',
  website: '',
  instagramHandle: '',
  termsAgreed: false,
};

const textFields = [
  'businessName',
  'contactName',
  'email',
  'phone',
  'address',
  'zipCode',
  'businessType',
  'description',
  'website',
  'instagramHandle',
] as const;

/** POST /business-portal without JavaScript: the form as posted (each field once, as text); the application's rules come after. */
export const businessFormPost = z.object({
  ...Object.fromEntries(textFields.map((key) => [key, formText(5000)])),
  termsAgreed: formText(10),
});

/** A posted form (or FormData entries) as form values: unknown keys dropped, a ticked checkbox is true. */
export function businessFormValues(form: Record<string, unknown>): BusinessFormValues {
  const values = { ...emptyBusinessForm };
  for (const key of textFields) {
    const value = form[key];
    if (typeof value === 'string') values[key] = value.slice(0, 5000);
  }
  const terms = form.termsAgreed;
  values.termsAgreed = terms === true || terms === 'on' || terms === 'true';
  return values;
}

/** The stored form of a website: with its scheme, so it can be linked to. */
export function normalizeWebsite(website: string): string {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}

/** The stored form of an Instagram handle: '@' and the username. */
export function normalizeInstagram(handle: string): string {
  return `@${handle.replace(/^@/, '')}`;
}

/** What the application form says when it is sent (both the island and the no-JavaScript post). */
export const SUBMIT_FAILED_TITLE = 'Submission failed';
export const SUBMIT_FAILED_FALLBACK = 'There was an error submitting your application. Please try again.';
export const submittedToast = { title: 'Application submitted successfully', description: "We've received your application and will contact you soon." };
