import type { Config } from '../../config.ts';
import type { CardConfig } from '../../shared/card-config.ts';

/** What the card form needs to know: the gateway, and Square's public ids when it is Square. */
export function cardConfig(config: Config): CardConfig {
  const square = config.payments === 'square';
  return {
    gateway: config.payments,
    applicationId: square ? (config.square.applicationId ?? null) : null,
    locationId: square ? (config.square.locationId ?? null) : null,
    environment: config.square.environment,
  };
}

/** 'Visa •••• 1111' for a stored card. */
export function cardLabel(card: { cardBrand?: string; lastFourDigits?: string } | null | undefined): string | null {
  if (!card?.lastFourDigits) return null;
  const brand = (card.cardBrand ?? 'Card')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\b\w/g, (c) => c.toUpperCase());
  return `${brand} •••• ${card.lastFourDigits}`;
}
