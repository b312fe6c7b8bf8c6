import { deleteCookie, getCookie } from 'hono/cookie';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext, AppEnv } from './context.ts';
import { joinCartOnSignIn } from './visitor-cart.ts';

/*
 * A visitor's Add to Cart survives signing in: it went into the visitor's own cart (a cookie,
 * http/visitor-cart.ts), and every sign-in and registration passes here, where that cart joins
 * the account's. Only POSTs act on it: no page view changes a cart. The product-id cookie of
 * the earlier design (a visitor was sent to sign in first) is only cleared.
 */

const LEGACY_INTENT_COOKIE = 'csa_cart_intent';

export interface IntentOutcome {
  toast: ToastInput;
  /** Where to go instead of the sign-in's next page. */
  next?: string;
}

/**
 * Joins the visitor's cart to the signed-in user's; the toast to show, or null when the visitor
 * had put nothing in a cart. `quietWhileIncomplete` is kept for the profile saves that call it.
 */
export function carryOutCartIntent<E extends AppEnv>(
  c: AppContext<E>,
  userId: number,
  _options: { quietWhileIncomplete?: boolean } = {},
): IntentOutcome | null {
  if (getCookie(c, LEGACY_INTENT_COOKIE) !== undefined) deleteCookie(c, LEGACY_INTENT_COOKIE, { path: '/' });
  const joined = joinCartOnSignIn(c, userId);
  if (joined === 0) return null;
  const what = joined === 1 ? 'The product you added is' : `The ${joined} products you added are`;
  return { toast: { title: 'Your cart came with you', description: `${what} in your cart.` } };
}
