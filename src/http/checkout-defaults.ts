import { findProfile } from '../domain/profile.ts';
import { cardConfig, cardLabel } from './card-config.ts';
import type { AppContext, AppEnv } from './context.ts';

/** What both checkout islands start from: the shopper's saved contact details, the card form's config, the saved card. */
export function checkoutDefaults<E extends AppEnv>(c: AppContext<E>, userId: number) {
  const profile = findProfile(c.get('deps').db, userId);
  const address = profile?.address;
  return {
    contact: {
      name: profile?.name ?? '',
      email: profile?.email ?? '',
      phone: profile?.phone ?? '',
      line1: address?.line1 ?? '',
      city: address?.city ?? '',
      state: address?.state ?? '',
      postalCode: address?.postalCode ?? '',
    },
    config: cardConfig(c.get('deps').config),
    savedCard: profile?.gatewayCardId ? cardLabel(profile.paymentMethod) : null,
  };
}
