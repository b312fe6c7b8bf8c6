/*
 * Picks the payment gateway from the configuration (DESIGN sections 5 and 7): Square when
 * `PAYMENTS=square` (or a Square access token is set), the built-in test gateway otherwise.
 */
import type { Config } from '../../config.ts';
import type { PaymentGateway } from './gateway.ts';
import { createTestGateway } from './test-gateway.ts';

/** Square's SDK is loaded only when it is the gateway: it costs half a second of start-up. */
export async function gatewayFromConfig(config: Config): Promise<PaymentGateway> {
  if (config.payments !== 'square') return createTestGateway();
  const { accessToken, locationId, environment, baseUrl } = config.square;
  const missing = [accessToken ? null : 'SQUARE_ACCESS_TOKEN', locationId ? null : 'SQUARE_LOCATION_ID'].filter(Boolean);
  if (!accessToken || !locationId) {
    throw new Error(`PAYMENTS=square needs ${missing.join(' and ')}; set ${missing.length > 1 ? 'them' : 'it'} or use PAYMENTS=test.`);
  }
  const { createSquareGateway } = await import('./square-gateway.ts');
  return createSquareGateway({ accessToken, locationId, environment, ...(baseUrl ? { baseUrl } : {}), maxRetries: 2 });
}
