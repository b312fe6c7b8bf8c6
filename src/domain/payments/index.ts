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
  // loadConfig refused PAYMENTS=square without these already, before anything was opened.
  if (!accessToken || !locationId) throw new Error('PAYMENTS=square needs SQUARE_ACCESS_TOKEN and SQUARE_LOCATION_ID.');
  const { createSquareGateway } = await import('./square-gateway.ts');
  // One SDK retry (same body, same idempotency key); a call gives up after the timeout and its
  // outcome is then found out by asking Square (docs/decisions.md, "Money").
  return createSquareGateway({
    accessToken,
    locationId,
    environment,
    ...(baseUrl ? { baseUrl } : {}),
    maxRetries: 1,
    timeoutInSeconds: config.paymentTimeoutMs / 1000,
  });
}
