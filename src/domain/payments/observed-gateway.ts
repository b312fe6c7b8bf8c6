import { errorFields, log } from '../../log.ts';
import { asPaymentFailure, type PaymentGateway } from './gateway.ts';

/** Told about every gateway call (the metrics). */
export type GatewayCallObserver = (operation: string, outcome: 'ok' | 'declined' | 'failed' | 'uncertain', seconds: number) => void;

type Operation = Exclude<keyof PaymentGateway, 'name'>;
const OPERATIONS: Operation[] = ['saveCard', 'authorize', 'capture', 'void', 'charge', 'refund', 'getPayment', 'findPayments'];

/** What a call is about, for the log: keys, ids and amounts, never a card token or a customer's details. */
function callFields(operation: Operation, input: unknown): Record<string, unknown> {
  if (typeof input === 'string') return { gatewayPaymentId: input };
  if (operation === 'findPayments' && Array.isArray(input)) return { references: input.length };
  if (!input || typeof input !== 'object') return {};
  const { idempotencyKey, amountCents, paymentId } = input as Record<string, unknown>;
  return { idempotencyKey, amountCents, gatewayPaymentId: paymentId };
}

/**
 * The gateway with one JSON log line per call (a payment step: operation, key, amount,
 * outcome, time) and the call counted for /metrics. Behaviour is the wrapped gateway's own.
 */
export function observedGateway(gateway: PaymentGateway, observe?: GatewayCallObserver): PaymentGateway {
  const payments = log.child({ component: 'payments', gateway: gateway.name });
  const observed: Record<string, unknown> = { name: gateway.name };
  for (const operation of OPERATIONS) {
    const call = (gateway[operation] as (...args: unknown[]) => Promise<unknown>).bind(gateway);
    observed[operation] = async (...args: unknown[]) => {
      const started = performance.now();
      const fields = { event: 'gateway_call', operation, ...callFields(operation, args[0]) };
      try {
        const answer = await call(...args);
        const ms = performance.now() - started;
        const status = answer && typeof answer === 'object' && 'status' in answer ? (answer as { status: unknown }).status : undefined;
        payments.info({ ...fields, outcome: 'ok', status, ms: Math.round(ms) }, `gateway ${operation} ok`);
        observe?.(operation, 'ok', ms / 1000);
        return answer;
      } catch (error) {
        const ms = performance.now() - started;
        const failure = asPaymentFailure(error);
        const outcome = failure.declined ? 'declined' : failure.uncertain ? 'uncertain' : 'failed';
        const level = failure.declined || failure.code === 'NOT_FOUND' ? 'info' : 'warn';
        payments[level](
          { ...fields, outcome, code: failure.code, ms: Math.round(ms), ...(outcome === 'uncertain' ? errorFields(error) : {}) },
          `gateway ${operation} ${outcome}`,
        );
        observe?.(operation, outcome, ms / 1000);
        throw error;
      }
    };
  }
  return observed as unknown as PaymentGateway;
}
