import type { Db } from '../../db/client.ts';
import { errorFields, log } from '../../log.ts';
import { logScopeFields } from '../../log-scope.ts';
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

interface PaymentRowIds {
  paymentId: number;
  orderId: number | null;
  playId: number | null;
  userId: number;
}

/**
 * Our payment row a call is about (by our key, else by the gateway's payment id), so its line
 * names the payment, order, play and shopper: the row is always written before the call.
 */
function rowFinder(db: Db) {
  let statements: ReturnType<typeof prepare> | undefined;
  function prepare() {
    const columns = 'select id as paymentId, order_id as orderId, play_id as playId, user_id as userId from payments';
    return {
      byKey: db.$client.prepare<PaymentRowIds, [string]>(`${columns} where idempotency_key = ?`),
      byGatewayId: db.$client.prepare<PaymentRowIds, [string]>(`${columns} where gateway_payment_id = ?`),
    };
  }
  return (operation: Operation, input: unknown): Record<string, unknown> => {
    try {
      statements ??= prepare();
      let row: PaymentRowIds | null = null;
      if (typeof input === 'string') row = statements.byGatewayId.get(input);
      else if (Array.isArray(input)) row = input.length === 1 && typeof input[0] === 'string' ? statements.byKey.get(input[0]) : null;
      else if (input && typeof input === 'object') {
        const { idempotencyKey, paymentId } = input as Record<string, unknown>;
        if (typeof idempotencyKey === 'string') row = statements.byKey.get(idempotencyKey);
        if (!row && operation !== 'refund' && typeof paymentId === 'string') row = statements.byGatewayId.get(paymentId);
      }
      if (!row) return {};
      return { paymentId: row.paymentId, orderId: row.orderId ?? undefined, playId: row.playId ?? undefined, userId: row.userId };
    } catch {
      // The log line must never cost the payment.
      return {};
    }
  };
}

/**
 * The gateway with one JSON log line per call (a payment step: operation, key, amount,
 * outcome, time, and the ids that find it again: the request, our payment row, its order or
 * play and its shopper) and the call counted for /metrics. Behaviour is the wrapped gateway's own.
 */
export function observedGateway(gateway: PaymentGateway, observe?: GatewayCallObserver, db?: Db): PaymentGateway {
  const payments = log.child({ component: 'payments', gateway: gateway.name });
  const rowIds = db ? rowFinder(db) : () => ({});
  const observed: Record<string, unknown> = { name: gateway.name };
  for (const operation of OPERATIONS) {
    const call = (gateway[operation] as (...args: unknown[]) => Promise<unknown>).bind(gateway);
    observed[operation] = async (...args: unknown[]) => {
      const started = performance.now();
      // The row's shopper wins over the signed-in user: an admin's refund is about the customer's payment.
      const fields = { event: 'gateway_call', operation, ...logScopeFields(), ...callFields(operation, args[0]), ...rowIds(operation, args[0]) };
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
