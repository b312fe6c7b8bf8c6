import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { userProfiles, users, type ProfileAddress, type StoredPaymentMethod } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { PaymentFailure, type PaymentGateway } from '../payments/gateway.ts';
import { gatewayKey } from '../payments/keys.ts';
import { clearIncompleteProfileNotice, noticeIncompleteProfile } from './notifications.ts';
import type { AccountLimits } from './account-limits.ts';
import { checkCurrentPassword } from './accounts.ts';
import { hasConfirmedEmail, pendingEmailOf, requestEmailChange } from './email-change.ts';
import { withCardAttempt } from '../payments/card-attempts.ts';
import type { PasswordHasher } from './passwords.ts';
import { followProfileIdentifiers } from './responsible-play.ts';

import type { ProfilePatch } from '../../shared/schemas/profile.ts';
import { stateCode } from '../../shared/us-states.ts';

type StoredProfile = typeof userProfiles.$inferSelect;

/** The profile shape of spec section 3, as GET /api/user/profile answers. The card token is never kept. */
export interface ProfileView {
  name: string;
  email: string;
  /** A new address waiting for its confirmation link to be opened. */
  pendingEmail?: string;
  phone: string;
  address: ProfileAddress;
  paymentMethod: {
    type: string;
    cardBrand?: string;
    lastFourDigits?: string;
    expMonth?: number;
    expYear?: number;
    /** True when a card is saved with the gateway, ready to pay with. */
    hasCardOnFile: boolean;
  };
  preferences: { receiveNotifications: boolean; newsletterSubscription: boolean };
}

const emptyAddress: ProfileAddress = { line1: '', line2: '', city: '', state: '', postalCode: '', country: 'USA' };

/** A stored address with a state typed as a name before the select ('California') read as its code; unknown text stays as typed. */
function readableAddress(address: ProfileAddress | null | undefined): ProfileAddress {
  const merged = { ...emptyAddress, ...(address ?? {}) };
  return { ...merged, line2: merged.line2 ?? '', state: stateCode(merged.state) ?? merged.state };
}

/** The street line of an order or a receipt: the apartment after the street, when there is one. */
export function streetLine(address: { line1: string; line2?: string | null }): string {
  const apartment = address.line2?.trim();
  return apartment ? `${address.line1}, ${apartment}` : address.line1;
}

/** The saved contact and address as an order's shipping address; the caller has checked they are there. */
export function profileShippingAddress(profile: StoredProfile, address: ProfileAddress) {
  return {
    name: profile.name ?? '',
    email: profile.email ?? '',
    phone: profile.phone ?? '',
    line1: streetLine(address),
    city: address.city,
    state: address.state,
    postalCode: address.postalCode,
    country: address.country || 'USA',
  };
}

/**
 * The profile tab that has what is missing: the card's tab when only the card is missing,
 * otherwise the personal details (a redirect to '/profile' lands there by itself).
 */
export function profileTabFor(missing: readonly string[]): 'personal' | 'payment' {
  return missing.length > 0 && missing.every((field) => field === 'payment card') ? 'payment' : 'personal';
}

/* Every signed-in page asks whether the profile is complete, and every buy or play reads it: built once (db/prepared.ts). */
const profileOf = preparedOnce((db) =>
  db
    .select()
    .from(userProfiles)
    .where(eq(userProfiles.userId, sql.placeholder('userId')))
    .prepare(),
);
const userNameOf = preparedOnce((db) =>
  db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare(),
);

export function findProfile(db: Queryable, userId: number): StoredProfile | undefined {
  return profileOf(db).get({ userId });
}

export function profileView(profile: StoredProfile | undefined): ProfileView {
  return {
    name: profile?.name ?? '',
    email: profile?.email ?? '',
    phone: profile?.phone ?? '',
    address: readableAddress(profile?.address),
    paymentMethod: { type: 'card', ...(profile?.paymentMethod ?? {}), hasCardOnFile: !!profile?.gatewayCardId },
    preferences: {
      receiveNotifications: profile?.emailNotifications ?? true,
      newsletterSubscription: profile?.newsletterSubscription ?? false,
    },
  };
}

const sameAddress = (a: string | null, b: string) => a?.toLowerCase() === b.toLowerCase();

const present = (value: string | null | undefined) => typeof value === 'string' && value.trim() !== '';

/** What is still missing before the profile counts as complete, by field. */
export function missingProfileFields(profile: StoredProfile | undefined): string[] {
  const address = profile?.address;
  const missing: string[] = [];
  if (!present(profile?.name)) missing.push('name');
  if (!present(profile?.email)) missing.push('email');
  if (!present(profile?.phone)) missing.push('phone');
  if (!present(address?.line1)) missing.push('address');
  if (!present(address?.city)) missing.push('city');
  if (!present(address?.state)) missing.push('state');
  if (!present(address?.postalCode)) missing.push('postal code');
  // Spec section 4 asks for a card payment type; a play needs the card itself on file. Apple Pay
  // as the preferred way to pay at checkout does not undo a saved card (docs/decisions.md).
  const type = profile?.paymentMethod?.type;
  if (!(type === 'square' || type === 'card' || type === 'apple_pay') || !profile?.gatewayCardId) missing.push('payment card');
  return missing;
}

export function isProfileComplete(profile: StoredProfile | undefined): boolean {
  return missingProfileFields(profile).length === 0;
}

export const PROFILE_INCOMPLETE = 'Please complete your profile information before making purchases or entering games.';

/**
 * Spec section 4's rule on every way to buy or play (cart, checkout, buy-now, plays), not only
 * on the /cart page: an incomplete profile gets 403 and the 'Complete Your Profile' notice.
 */
export function requireCompleteProfile(db: Queryable, clock: Clock, userId: number): StoredProfile {
  const profile = findProfile(db, userId);
  const missing = missingProfileFields(profile);
  if (missing.length === 0) return profile!;
  noticeIncompleteProfile(db, clock, userId);
  throw new DomainError(403, PROFILE_INCOMPLETE, undefined, { code: 'PROFILE_INCOMPLETE', missing });
}

export function profileStatus(db: Queryable, userId: number): { isComplete: boolean; missing: string[] } {
  const missing = missingProfileFields(findProfile(db, userId));
  return { isComplete: missing.length === 0, missing };
}

export interface ProfileDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
  limits: AccountLimits;
  passwords: PasswordHasher;
}

export const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your e-mail.';
export const CURRENT_PASSWORD_WRONG = 'Your current password is not right.';

/** A new address for an account that has one needs the current password: a stolen session alone cannot move the account. */
async function checkPasswordForNewEmail(deps: ProfileDeps, userId: number, typed: string | undefined): Promise<void> {
  if (!typed) throw new DomainError(400, CURRENT_PASSWORD_NEEDED, { currentPassword: CURRENT_PASSWORD_NEEDED });
  await checkCurrentPassword(deps, userId, typed, new DomainError(400, CURRENT_PASSWORD_WRONG, { currentPassword: CURRENT_PASSWORD_WRONG }));
}

/**
 * PATCH /api/user/profile and the profile forms: the sections sent are checked with the rules
 * of spec section 5 and saved; the rest stays. A card token in `paymentMethod.sourceId` (or
 * `token`) becomes a card on file with the gateway; only its id, brand, last four digits and
 * expiry are kept.
 */
export async function updateProfile(deps: ProfileDeps, userId: number, patch: ProfilePatch, clientAddress: string): Promise<ProfileView> {
  const existing = findProfile(deps.db, userId);
  const changes: Partial<StoredProfile> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  // A new address for an account that has one counts only once confirmed, and needs the current
  // password; the first one is kept for receipts at once and confirmed by its link (email-change.ts).
  const currentEmail = existing?.email?.trim() ?? '';
  let wantedEmail: string | null = null;
  let confirmEmail: string | null = null;
  if (patch.email !== undefined) {
    if (currentEmail && patch.email.trim().toLowerCase() !== currentEmail.toLowerCase()) {
      await checkPasswordForNewEmail(deps, userId, patch.currentPassword);
      wantedEmail = patch.email.trim();
    } else {
      changes.email = patch.email;
      if (!hasConfirmedEmail(deps.db, userId)) confirmEmail = patch.email.trim();
    }
  }
  if (patch.phone !== undefined) changes.phone = patch.phone;
  if (patch.address !== undefined) changes.address = patch.address;
  if (patch.preferences?.receiveNotifications !== undefined) changes.emailNotifications = patch.preferences.receiveNotifications;
  if (patch.preferences?.newsletterSubscription !== undefined) changes.newsletterSubscription = patch.preferences.newsletterSubscription;

  const token = patch.paymentMethod?.sourceId || patch.paymentMethod?.token;
  let cardFingerprint: string | undefined;
  if (token) {
    const client = { userId, address: clientAddress };
    const card = await withCardAttempt(deps, client, (gate) =>
      gate.call(() => saveCard(deps, userId, existing, token, changes.email ?? existing?.email, patch.name ?? existing?.name)),
    );
    const { fingerprint, ...saved } = card;
    cardFingerprint = fingerprint;
    Object.assign(changes, saved);
  } else if (patch.paymentMethod?.type && patch.paymentMethod.type !== (existing?.paymentMethod?.type ?? 'card')) {
    // The preferred way to pay; a card still has to be saved before the profile is complete.
    changes.paymentMethod = { ...(existing?.paymentMethod ?? {}), type: patch.paymentMethod.type };
  }

  const now = deps.clock.now();
  deps.db.transaction((tx) => {
    if (existing) {
      tx.update(userProfiles)
        .set({ ...changes, updatedAt: now })
        .where(eq(userProfiles.userId, userId))
        .run();
    } else {
      tx.insert(userProfiles)
        .values({ userId, ...changes, updatedAt: now })
        .run();
    }
    followProfileIdentifiers(tx, deps.clock, userId, cardFingerprint);
    const user = userNameOf(tx).get({ userId })!;
    if (wantedEmail) requestEmailChange(tx, deps.clock, deps.limits, user, currentEmail, wantedEmail);
    // An address not confirmed yet gets its link; saved again (the same address) it gets a fresh
    // one unless a link is still open or the hourly limit is reached, quietly.
    else if (
      confirmEmail &&
      !sameAddress(pendingEmailOf(tx, deps.clock, userId), confirmEmail) &&
      deps.limits.passwordResetsByAccount.retryAfter(`email-change:${userId}`) === 0
    )
      requestEmailChange(tx, deps.clock, deps.limits, user, null, confirmEmail);
  });
  const saved = findProfile(deps.db, userId);
  // The 'Complete Your Profile' reminder has done its job once the profile is complete.
  if (isProfileComplete(saved)) clearIncompleteProfileNotice(deps.db, userId);
  // A first address waiting for its link is already the profile's: only a new one is 'pending'.
  const pendingEmail = pendingEmailOf(deps.db, deps.clock, userId);
  return pendingEmail && !sameAddress(pendingEmail, saved?.email?.trim() ?? '') ? { ...profileView(saved), pendingEmail } : profileView(saved);
}

async function saveCard(
  deps: ProfileDeps,
  userId: number,
  existing: StoredProfile | undefined,
  token: string,
  email: string | null | undefined,
  name: string | null | undefined,
): Promise<Partial<StoredProfile> & { fingerprint?: string }> {
  const user = userNameOf(deps.db).get({ userId });
  // One key per request: a retried save stores the card once, and saving the same card again
  // later (a test card, or a wallet token) is a new request, not a reused key.
  const request = JSON.stringify([token, existing?.gatewayCustomerId ?? null, existing?.gatewayCardId ?? null, email ?? null, name ?? user?.username ?? null]);
  const tokenHash = new Bun.CryptoHasher('sha256').update(request).digest('hex').slice(0, 16);
  try {
    const card = await deps.gateway.saveCard({
      sourceId: token,
      customerId: existing?.gatewayCustomerId,
      idempotencyKey: gatewayKey(deps.db, 'card', userId, tokenHash),
      customer: { referenceId: `user-${userId}`, email, name: name ?? user?.username },
    });
    const paymentMethod: StoredPaymentMethod = {
      type: 'card',
      cardBrand: card.brand,
      lastFourDigits: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
    };
    return { paymentMethod, gatewayCustomerId: card.customerId, gatewayCardId: card.cardId, ...(card.fingerprint ? { fingerprint: card.fingerprint } : {}) };
  } catch (error) {
    if (error instanceof PaymentFailure) {
      const message = error.declined
        ? 'This card was declined. Please check the details or use another card.'
        : 'The card could not be saved. Please try again.';
      throw new DomainError(error.declined ? 422 : 400, message, { 'paymentMethod.sourceId': message });
    }
    throw error;
  }
}

/** Spec section 4: connecting Apple Pay sets the payment type apple_pay and saves. */
export function connectApplePay(db: Queryable, clock: Clock, userId: number): ProfileView {
  const existing = findProfile(db, userId);
  const paymentMethod: StoredPaymentMethod = { ...(existing?.paymentMethod ?? {}), type: 'apple_pay' };
  if (existing) db.update(userProfiles).set({ paymentMethod, updatedAt: clock.now() }).where(eq(userProfiles.userId, userId)).run();
  else db.insert(userProfiles).values({ userId, paymentMethod, updatedAt: clock.now() }).run();
  return profileView(findProfile(db, userId));
}
