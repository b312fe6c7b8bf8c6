import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userProfiles } from '../db/schema.ts';

type StoredProfile = typeof userProfiles.$inferSelect;

/**
 * Spec section 4: complete when name, email, phone, address line1, city, state, postal code
 * and a card payment type (square or card) are all present.
 */
export function isProfileComplete(profile: StoredProfile | undefined): boolean {
  if (!profile) return false;
  const address = profile.address;
  const present = (value: string | null | undefined) => typeof value === 'string' && value.trim() !== '';
  return (
    present(profile.name) &&
    present(profile.email) &&
    present(profile.phone) &&
    present(address?.line1) &&
    present(address?.city) &&
    present(address?.state) &&
    present(address?.postalCode) &&
    (profile.paymentMethod?.type === 'square' || profile.paymentMethod?.type === 'card')
  );
}

export function profileStatus(db: Db, userId: number): { isComplete: boolean } {
  const profile = db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  return { isComplete: isProfileComplete(profile) };
}
