import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { addToCart } from '../domain/cart.ts';
import { findProduct, productTitle, productView } from '../domain/catalog.ts';
import { DomainError } from '../domain/errors.ts';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext, AppEnv } from './context.ts';
import { joinCartOnSignIn } from './visitor-cart.ts';

/*
 * A visitor's Add to Cart survives the sign-in it needs: the POST that found no session keeps
 * the product in a short-lived cookie, and the next POST that signs in (or completes the
 * profile a cart needs) puts it in the cart. Only POSTs act on it: no page view changes a cart.
 */

const INTENT_COOKIE = 'csa_cart_intent';
const KEEP_SECONDS = 30 * 60;

export interface IntentOutcome {
  toast: ToastInput;
  /** Where to go instead of the sign-in's next page (the profile, when it is incomplete). */
  next?: string;
}

export function rememberCartIntent<E extends AppEnv>(c: AppContext<E>, productId: number): void {
  setCookie(c, INTENT_COOKIE, String(productId), { path: '/', httpOnly: true, sameSite: 'Lax', maxAge: KEEP_SECONDS });
}

/**
 * Adds the remembered product to the signed-in user's cart; null when nothing was waiting
 * (or, with `quietWhileIncomplete`, when it still waits for the profile).
 */
export function carryOutCartIntent<E extends AppEnv>(c: AppContext<E>, userId: number, options: { quietWhileIncomplete?: boolean } = {}): IntentOutcome | null {
  // Every sign-in and registration passes here: the visitor's cart joins the account first.
  const joined = joinCartOnSignIn(c, userId);
  const raw = getCookie(c, INTENT_COOKIE);
  if (!raw) {
    if (joined === 0) return null;
    const what = joined === 1 ? 'The product you added is' : `The ${joined} products you added are`;
    return { toast: { title: 'Your cart came with you', description: `${what} in your cart.` } };
  }
  const productId = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const stored = productId === null ? undefined : findProduct(c.env.deps.db, productId);
  if (!stored) {
    deleteCookie(c, INTENT_COOKIE, { path: '/' });
    return null;
  }
  const { name, subtitle } = productTitle(productView(stored));
  const label = `${name} ${subtitle}`;
  try {
    addToCart(c.env.deps.db, c.env.deps.clock, userId, { productId: stored.id });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.extra?.code === 'PROFILE_INCOMPLETE') {
      // Kept for the save that completes the profile.
      if (options.quietWhileIncomplete) return null;
      return { toast: { title: 'Complete your profile', description: `Then ${label} goes in your cart.` }, next: '/profile' };
    }
    deleteCookie(c, INTENT_COOKIE, { path: '/' });
    return { toast: { title: 'Could not add to cart', description: error.message, variant: 'destructive' } };
  }
  deleteCookie(c, INTENT_COOKIE, { path: '/' });
  return { toast: { title: 'Added to cart', description: `${label} is in your cart.` } };
}
