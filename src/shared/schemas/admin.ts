import * as z from 'zod/mini';
import { PRODUCT_TYPE_NAMES } from './catalog.ts';

/*
 * Request bodies of the admin calls: the PIN, order status changes and the payment review.
 * Browser-safe; the admin pages' forms post the same names.
 */

export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'completed', 'failed', 'canceled'] as const;
export const REVIEW_ACTIONS = ['check', 'mark_paid', 'mark_failed', 'retry', 'dismiss'] as const;
export const ADMIN_TABS = [...PRODUCT_TYPE_NAMES, 'orders', 'influencers', 'games', 'applications', 'promotions', 'settings'] as const;

/**
 * GET /admin?tab=&q=&status=: a page, so forgiving: an unknown tab is the first tab, an unknown
 * status no filter, a long search its first 100 characters.
 */
export const adminPageQuery = z.object({
  tab: z.catch(z._default(z.enum(ADMIN_TABS), 'sunglasses'), 'sunglasses'),
  q: z.catch(z._default(z.string().check(z.overwrite((q) => q.slice(0, 100))), ''), ''),
  status: z.catch(z.nullable(z._default(z.enum(ORDER_STATUSES), null as never)), null),
});

/** POST /api/admin/pin and the admin gate's form. */
export const adminPinBody = z.object({
  // Not trimmed: the PIN is compared exactly as typed, and an empty one counts as a wrong guess.
  pin: z.string({ error: 'Send the PIN as text.' }).check(z.maxLength(64, 'Invalid PIN. Please try again.')),
});

const statusMessage = "Choose 'completed' (delivered) or 'canceled'.";
/** POST /api/admin/orders/{id}/status and the Orders tab's buttons. */
export const orderStatusBody = z.object({ status: z.enum(['completed', 'canceled'], { error: statusMessage }) });

/** GET /api/admin/orders?status= */
export const adminOrdersQuery = z.object({
  status: z.optional(z.enum(ORDER_STATUSES, { error: 'Use pending, processing, shipped, completed, failed or canceled.' })),
});

/** POST /api/admin/payments/{id}/resolve and the attention list's buttons. */
export const paymentResolveBody = z.object({
  action: z.enum(REVIEW_ACTIONS, { error: 'Choose check, mark_paid, mark_failed, retry or dismiss.' }),
  gatewayPaymentId: z.optional(z.string().check(z.trim(), z.maxLength(200, 'At most 200 characters'))),
  /** Mark paid with a payment made for another reference: the admin's reason, kept on the payment and logged. */
  overrideReason: z.optional(z.string().check(z.trim(), z.maxLength(500, 'At most 500 characters'))),
});

/** The Orders tab's buttons also carry the list's filter, to come back to it. */
export const orderStatusForm = z.object({
  status: z.enum(['completed', 'canceled'], { error: statusMessage }),
  filter: z.optional(z.catch(z.optional(z.enum(ORDER_STATUSES)), undefined)),
  /** 'yes' once the admin confirmed on the confirmation step; without it nothing changes. */
  confirmed: z.optional(z.string()),
});

/** The attention list's buttons; marking failed needs the 'I checked' box. */
export const paymentResolveForm = z.extend(paymentResolveBody, {
  confirmed: z.optional(z.string()),
});

/** The admin gate's form: the PIN and where to go next. */
export const adminPinForm = z.extend(adminPinBody, { next: z.optional(z.string().check(z.maxLength(2000))) });
