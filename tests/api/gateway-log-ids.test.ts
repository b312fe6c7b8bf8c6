import { describe, expect, spyOn, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { payments } from '../../src/db/schema.ts';
import { observedGateway } from '../../src/domain/payments/observed-gateway.ts';
import { log } from '../../src/log.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { aviator, checkoutStore, type CheckoutStore } from '../helpers/checkout.ts';

/* Issue 26 row 10: a gateway line names the request, the shopper, the order and our payment row. */

type Line = Record<string, unknown>;

/** The store's gateway, observed as in production (server.ts), its lines recorded. */
function observed(ctx: CheckoutStore): Line[] {
  const lines: Line[] = [];
  const record = (fields: Line) => void lines.push(fields);
  const child = spyOn(log, 'child').mockImplementation(() => ({ info: record, warn: record, error: record }) as never);
  try {
    // The app holds this very object: its methods become the observed ones (which call the originals they bound).
    Object.assign(ctx.gateway, observedGateway(ctx.gateway, undefined, ctx.db));
  } finally {
    child.mockRestore();
  }
  return lines;
}

describe('gateway log lines', () => {
  test("a buy-now charge's line carries the request id, the shopper, the order and the payment row", async () => {
    const ctx = await checkoutStore();
    const lines = observed(ctx);
    const item = aviator(ctx);
    const response = await ctx.shopper.post('/api/orders', { json: buyNowBody(item.id, item.priceCents), headers: { 'x-request-id': 'req-buy-1' } });
    expect(response.status).toBe(201);
    const { orderId } = (await response.json()) as { orderId: number };
    const payment = ctx.db.select().from(payments).where(eq(payments.orderId, orderId)).get()!;
    const charge = lines.find((line) => line.operation === 'charge');
    expect(charge).toMatchObject({ event: 'gateway_call', outcome: 'ok', reqId: 'req-buy-1', userId: ctx.userId, orderId, paymentId: payment.id });
    expect(JSON.stringify(lines)).not.toContain('cnon:');

    // Outside a request (a job asking about the payment): no request id, the row's ids still.
    lines.length = 0;
    await ctx.gateway.getPayment(payment.gatewayPaymentId!);
    expect(lines[0]).toMatchObject({ operation: 'getPayment', orderId, paymentId: payment.id, userId: ctx.userId });
    expect(lines[0]!.reqId).toBeUndefined();
  });
});
