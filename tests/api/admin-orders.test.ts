import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, notifications, orders, payments, products } from '../../src/db/schema.ts';
import { PaymentFailure, type PaymentGateway } from '../../src/domain/payments/gateway.ts';
import { gatewayKeyPrefix } from '../../src/domain/payments/keys.ts';
import { type testApp, type TestClient, seededApp } from '../helpers/app.ts';
import { adminWithPin, adminWithoutPin } from '../helpers/actors.ts';
import { afterRedirect } from '../helpers/admin-tools.ts';
import { all, count, mainOf, textOf } from '../helpers/html.ts';

/*
 * Order management for admins: the Orders tab of the admin panel (/admin?tab=orders, form
 * posts to /admin/orders/{id}/status) and the JSON API (/api/admin/orders). Orders are made
 * through the real checkout, as a shopper would.
 */

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Store = Ctx & { shopper: TestClient; userId: number };

const MINUTE = 60 * 1000;

const profileDetails = {
  name: 'Pat Profile',
  email: 'pat@example.com',
  phone: '949-555-0456',
  address: { line1: '789 Glenneyre St', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
  paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
};

/** A seeded store with one shopper whose profile is complete and has a card on file. */
async function store(): Promise<Store> {
  const ctx = await seededApp();
  const shopper = ctx.client();
  const registered = await shopper.post('/api/register', { json: { username: 'shopper1', password: 'secret-pass' } });
  expect(registered.status).toBe(201);
  expect((await shopper.request('PATCH', '/api/user/profile', { json: profileDetails })).status).toBe(200);
  return { ...ctx, shopper, userId: (await registered.json()).id };
}

function product(ctx: Ctx, brand: string, model: string) {
  const row = ctx.db
    .select()
    .from(products)
    .where(and(eq(products.brand, brand), eq(products.model, model)))
    .get();
  if (!row) throw new Error(`no seeded product ${brand} ${model}`);
  return row;
}

// Seeded: Aviator $171.00 x12, Wayfarer $163.00 x4.
const aviator = (ctx: Ctx) => product(ctx, 'Ray-Ban', 'RB3025-L0205');
const wayfarer = (ctx: Ctx) => product(ctx, 'Ray-Ban', 'RB2140-901');
const stockOf = (ctx: Ctx, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get()!.quantity;
const orderRow = (ctx: Ctx, id: number) => ctx.db.select().from(orders).where(eq(orders.id, id)).get()!;
const paymentRows = (ctx: Ctx, orderId: number) => ctx.db.select().from(payments).where(eq(payments.orderId, orderId)).all();
const orderNotes = (ctx: Ctx, userId: number) =>
  ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'order_status')))
    .all();

type CartLine = { id: number; productId: number; quantity: number; price: number; type: string };

/**
 * Fills the cart and checks out through POST /api/checkout with the summary the cart page
 * shows (standard shipping $5.99, 8% tax); resolves to the order id and its total in cents.
 */
async function order(ctx: Store, method: 'square' | 'cod', lines: [productId: number, quantity: number][]) {
  for (const [productId, quantity] of lines) {
    expect((await ctx.shopper.post('/api/cart', { json: { productId, quantity } })).status).toBe(201);
  }
  const cart = (await (await ctx.shopper.get('/api/cart')).json()) as CartLine[];
  const subtotalCents = cart.reduce((sum, line) => sum + Math.round(line.price * 100) * line.quantity, 0);
  const taxCents = Math.round(subtotalCents * 0.08);
  const totalCents = subtotalCents + 599 + taxCents;
  const response = await ctx.shopper.post('/api/checkout', {
    json: {
      paymentMethod: method,
      items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
      shipping: { method: 'standard', cost: 5.99 },
      summary: { subtotal: subtotalCents / 100, shipping: 5.99, tax: taxCents / 100, total: totalCents / 100 },
    },
  });
  expect(response.status).toBe(201);
  const { orderId } = (await response.json()) as { orderId: number };
  expect(orderRow(ctx, orderId)).toMatchObject({ status: 'processing', paymentMethod: method, totalCents });
  ctx.clock.advance(MINUTE);
  return { id: orderId, totalCents };
}

/** Aviator x1 + Wayfarer x2: 497.00 + 5.99 + 39.76 = $542.75. */
const bigOrder = (ctx: Store, method: 'square' | 'cod') =>
  order(ctx, method, [
    [aviator(ctx).id, 1],
    [wayfarer(ctx).id, 2],
  ]);

/** The confirmation step's form post, as the browser sends it (the list's button first shows that step). */
const postStatus = (client: TestClient, id: number, status: string, extra: Record<string, string> = {}) =>
  client.post(`/admin/orders/${id}/status`, { form: { status, confirmed: 'yes', ...extra } });

const apiStatus = (client: TestClient, id: number | string, status: unknown) => client.post(`/api/admin/orders/${id}/status`, { json: { status } });

/** Each order on the Orders tab: its id, status, its row and the row's text. */
function listedOrders(html: string): { id: number; status: string; row: Element; text: string }[] {
  return all(mainOf(html), 'article[data-order-id][data-status]').map((row) => ({
    id: Number(row.getAttribute('data-order-id')),
    status: row.getAttribute('data-status')!,
    row,
    text: textOf(row),
  }));
}

// ---------------------------------------------------------------- who may change a status

describe('who may change an order status', () => {
  test('signed out, a shopper and an admin without the PIN are refused; nothing changes', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'square');
    const signedOut = ctx.client();
    const admin = await adminWithoutPin(ctx);

    const page = await postStatus(signedOut, id, 'canceled');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toStartWith('/auth?next=');
    expect((await postStatus(ctx.shopper, id, 'canceled')).status).toBe(403);
    expect((await postStatus(admin, id, 'canceled')).status).toBe(403);

    expect((await apiStatus(signedOut, id, 'canceled')).status).toBe(401);
    expect((await apiStatus(ctx.shopper, id, 'canceled')).status).toBe(403);
    const noPin = await apiStatus(admin, id, 'completed');
    expect(noPin.status).toBe(403);
    expect((await noPin.json()).message).toBe('Enter the admin PIN first.');

    expect((await signedOut.get('/api/admin/orders')).status).toBe(401);
    expect((await ctx.shopper.get('/api/admin/orders')).status).toBe(403);
    expect((await admin.get('/api/admin/orders')).status).toBe(403);
    expect((await ctx.shopper.get('/admin?tab=orders')).status).toBe(403);

    expect(orderRow(ctx, id).status).toBe('processing');
    expect(ctx.gateway.refunds()).toHaveLength(0);
    expect(paymentRows(ctx, id).map((p) => p.status)).toEqual(['captured']);
    expect(orderNotes(ctx, ctx.userId)).toHaveLength(0);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
  });

  test('a cross-site form post is refused', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'cod');
    const admin = await adminWithPin(ctx);
    const response = await admin.post(`/admin/orders/${id}/status`, { form: { status: 'completed' }, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(orderRow(ctx, id).status).toBe('processing');
  });
});

// ---------------------------------------------------------------- delivered

describe('Mark Delivered', () => {
  test('processing → completed: toast, notification, and the customer sees it completed', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'square');
    const admin = await adminWithPin(ctx);

    const { location, toast } = await afterRedirect(admin, await postStatus(admin, id, 'completed'));
    expect(location).toBe('/admin?tab=orders');
    expect(toast).toEqual({ title: 'Order updated', description: `Order #${id} marked as delivered.`, variant: 'default' });

    expect(orderRow(ctx, id).status).toBe('completed');
    const notes = orderNotes(ctx, ctx.userId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      title: 'Order delivered',
      message: `Your order #${id} has been delivered. Enjoy!`,
      actionUrl: `/orders/${id}`,
      actionText: 'View Order',
      read: false,
    });
    const seen = await ctx.shopper.get(`/api/orders/${id}`);
    expect(seen.status).toBe(200);
    expect((await seen.json()).status).toBe('completed');

    // Delivering moves no money and no stock.
    expect(ctx.gateway.refunds()).toHaveLength(0);
    expect(paymentRows(ctx, id).map((p) => [p.kind, p.status])).toEqual([['order_charge', 'captured']]);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(11);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
  });

  test('the filter the admin was on is kept after the post', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'cod');
    const admin = await adminWithPin(ctx);
    const response = await postStatus(admin, id, 'completed', { filter: 'processing' });
    expect(response.headers.get('location')).toBe('/admin?tab=orders&status=processing');
    const bogus = await postStatus(admin, id, 'completed', { filter: 'https://evil.example' });
    expect(bogus.headers.get('location')).toBe('/admin?tab=orders');
  });
});

// ---------------------------------------------------------------- canceled

describe('Cancel Order', () => {
  test('a card order: refunds exactly the total once, charge refunded, stock back, customer told', async () => {
    const ctx = await store();
    const { id, totalCents } = await bigOrder(ctx, 'square');
    expect(totalCents).toBe(54275);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
    const admin = await adminWithPin(ctx);

    const { toast } = await afterRedirect(admin, await postStatus(admin, id, 'canceled'));
    expect(toast).toEqual({ title: 'Order updated', description: `Order #${id} canceled and refunded.`, variant: 'default' });

    const row = orderRow(ctx, id);
    expect(row.status).toBe('canceled');
    const refunds = ctx.gateway.refunds();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ paymentId: row.paymentId!, amountCents: 54275, status: 'COMPLETED' });

    const rows = paymentRows(ctx, id);
    expect(rows.find((p) => p.kind === 'order_charge')).toMatchObject({ status: 'refunded', amountCents: 54275 });
    expect(rows.filter((p) => p.kind === 'refund')).toEqual([
      expect.objectContaining({
        status: 'refunded',
        amountCents: 54275,
        idempotencyKey: `${gatewayKeyPrefix(ctx.db)}-refund-${id}`,
        gatewayPaymentId: refunds[0]!.id,
        userId: ctx.userId,
      }),
    ]);

    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);

    const notes = orderNotes(ctx, ctx.userId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      title: 'Order canceled',
      message: `Your order #${id} was canceled. A refund of $542.75 is on its way to your card.`,
      actionUrl: `/orders/${id}`,
    });
    expect((await (await ctx.shopper.get(`/api/orders/${id}`)).json()).status).toBe('canceled');
  });

  test('a cash on delivery order: nothing to refund, stock back, customer told', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'cod');
    const admin = await adminWithPin(ctx);

    const { toast } = await afterRedirect(admin, await postStatus(admin, id, 'canceled'));
    expect(toast?.description).toBe(`Order #${id} canceled.`);
    expect(orderRow(ctx, id).status).toBe('canceled');
    expect(ctx.gateway.refunds()).toHaveLength(0);
    expect(paymentRows(ctx, id)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);
    expect(orderNotes(ctx, ctx.userId).map((n) => [n.title, n.message])).toEqual([['Order canceled', `Your order #${id} was canceled.`]]);
  });

  test('a prize (play) item does not go back into stock; buy-now items do', async () => {
    const ctx = await store();
    const prize = wayfarer(ctx);
    // A won prize in the cart: $1, one unit, its stock reserved when its game started.
    ctx.db.insert(cartItems).values({ userId: ctx.userId, productId: prize.id, quantity: 1, priceCents: 100, type: 'play', addedAt: ctx.clock.now() }).run();
    const { id } = await order(ctx, 'cod', [[aviator(ctx).id, 1]]);
    expect(stockOf(ctx, prize.id)).toBe(4);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(11);

    const admin = await adminWithPin(ctx);
    expect((await apiStatus(admin, id, 'canceled')).status).toBe(200);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
    expect(stockOf(ctx, prize.id)).toBe(4);
  });

  test('two admins canceling at once: one wins, the card is refunded once', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'square');
    const first = await adminWithPin(ctx);
    const second = await adminWithPin(ctx);
    // A slow gateway, so the second click lands while the first refund is still under way.
    const gateway = ctx.gateway as PaymentGateway;
    const realRefund = gateway.refund;
    let calls = 0;
    gateway.refund = async (input) => {
      calls++;
      await Bun.sleep(25);
      return realRefund(input);
    };

    const answers = await Promise.all([apiStatus(first, id, 'canceled'), apiStatus(second, id, 'canceled'), postStatus(first, id, 'canceled')]);
    const statuses = answers
      .slice(0, 2)
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([200, 409]);
    expect(calls).toBe(1);
    expect(ctx.gateway.refunds()).toHaveLength(1);
    expect(paymentRows(ctx, id).filter((p) => p.kind === 'refund')).toHaveLength(1);
    expect(orderNotes(ctx, ctx.userId)).toHaveLength(1);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);
    expect(orderRow(ctx, id).status).toBe('canceled');
  });

  test('a failed refund puts the order back to processing with nothing half-done; a retry then works', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'square');
    const admin = await adminWithPin(ctx);
    const gateway = ctx.gateway as PaymentGateway;
    const realRefund = gateway.refund;
    gateway.refund = async () => {
      throw new PaymentFailure('GATEWAY_ERROR', 'Square did not answer in time.', false);
    };

    const { toast } = await afterRedirect(admin, await postStatus(admin, id, 'canceled'));
    expect(toast).toEqual({ title: 'Update failed', description: 'The refund failed: Square did not answer in time.', variant: 'destructive' });
    const failed = await apiStatus(admin, id, 'canceled');
    expect(failed.status).toBe(502);
    expect((await failed.json()).message).toBe('The refund failed: Square did not answer in time.');

    expect(orderRow(ctx, id).status).toBe('processing');
    const rows = paymentRows(ctx, id);
    expect(rows.find((p) => p.kind === 'order_charge')!.status).toBe('captured');
    expect(rows.filter((p) => p.kind === 'refund').map((p) => [p.status, p.errorCode])).toEqual([['failed', 'GATEWAY_ERROR']]);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
    expect(orderNotes(ctx, ctx.userId)).toHaveLength(0);

    // A refund the gateway answers as REJECTED is a failure too.
    gateway.refund = async (input) => ({ id: 'test-ref-rejected', status: 'REJECTED', amountCents: input.amountCents });
    const rejected = await apiStatus(admin, id, 'canceled');
    expect(rejected.status).toBe(502);
    expect((await rejected.json()).message).toStartWith('The refund failed:');
    expect(orderRow(ctx, id).status).toBe('processing');

    // The gateway is back: the same key is used again and the cancel goes through once.
    const keys: string[] = [];
    gateway.refund = (input) => {
      keys.push(input.idempotencyKey);
      return realRefund(input);
    };
    const retried = await apiStatus(admin, id, 'canceled');
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({
      message: `Order #${id} canceled and refunded.`,
      refunded: 542.75,
      order: { id, status: 'canceled', refunded: 542.75 },
    });
    expect(keys).toEqual([`${gatewayKeyPrefix(ctx.db)}-refund-${id}`]);
    expect(ctx.gateway.refunds()).toHaveLength(1);
    expect(
      paymentRows(ctx, id)
        .filter((p) => p.kind === 'refund')
        .map((p) => p.status),
    ).toEqual(['refunded']);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);
    expect(orderNotes(ctx, ctx.userId)).toHaveLength(1);
  });

  test('a refund the gateway accepts as PENDING counts as refunded', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'square');
    const admin = await adminWithPin(ctx);
    (ctx.gateway as PaymentGateway).refund = async (input) => ({ id: 'sq-ref-1', status: 'PENDING', amountCents: input.amountCents });
    expect((await apiStatus(admin, id, 'canceled')).status).toBe(200);
    expect(orderRow(ctx, id).status).toBe('canceled');
    expect(paymentRows(ctx, id).map((p) => [p.kind, p.status])).toEqual([
      ['order_charge', 'refunded'],
      ['refund', 'refunded'],
    ]);
  });
});

// ---------------------------------------------------------------- refused changes

describe('only processing orders change', () => {
  test('completed → canceled and canceled → completed are 409; nothing more is refunded', async () => {
    const ctx = await store();
    const delivered = await order(ctx, 'square', [[aviator(ctx).id, 1]]);
    const canceled = await order(ctx, 'square', [[aviator(ctx).id, 1]]);
    const admin = await adminWithPin(ctx);
    expect((await apiStatus(admin, delivered.id, 'completed')).status).toBe(200);
    expect((await apiStatus(admin, canceled.id, 'canceled')).status).toBe(200);

    const again = await apiStatus(admin, delivered.id, 'canceled');
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(`Order #${delivered.id} has already been delivered. Only processing orders can be marked delivered or canceled.`);
    const back = await apiStatus(admin, canceled.id, 'completed');
    expect(back.status).toBe(409);
    expect((await back.json()).message).toBe(`Order #${canceled.id} has already been canceled. Only processing orders can be marked delivered or canceled.`);
    expect((await apiStatus(admin, canceled.id, 'canceled')).status).toBe(409);

    const { toast } = await afterRedirect(admin, await postStatus(admin, delivered.id, 'canceled'));
    expect(toast).toMatchObject({ title: 'Update failed', variant: 'destructive' });
    expect(toast?.description).toContain('has already been delivered');

    expect(orderRow(ctx, delivered.id).status).toBe('completed');
    expect(orderRow(ctx, canceled.id).status).toBe('canceled');
    expect(ctx.gateway.refunds()).toHaveLength(1);
    expect(orderNotes(ctx, ctx.userId)).toHaveLength(2);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(11);
  });

  test('a failed-payment order cannot be changed', async () => {
    const ctx = await store();
    expect((await ctx.shopper.post('/api/cart', { json: { productId: aviator(ctx).id, quantity: 1 } })).status).toBe(201);
    const cart = (await (await ctx.shopper.get('/api/cart')).json()) as CartLine[];
    const declined = await ctx.shopper.post('/api/checkout', {
      json: {
        paymentMethod: 'square',
        paymentToken: 'cnon:card-nonce-declined',
        items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
        shipping: { method: 'standard', cost: 5.99 },
        summary: { subtotal: 171, shipping: 5.99, tax: 13.68, total: 190.67 },
      },
    });
    expect(declined.status).toBe(402);
    const failedOrder = ctx.db.select().from(orders).get()!;
    expect(failedOrder.status).toBe('failed');
    const admin = await adminWithPin(ctx);
    const response = await apiStatus(admin, failedOrder.id, 'completed');
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain('failed at payment');
  });

  test('unknown orders are 404 and other statuses 400', async () => {
    const ctx = await store();
    const { id } = await bigOrder(ctx, 'cod');
    const admin = await adminWithPin(ctx);
    expect((await apiStatus(admin, 9999, 'completed')).status).toBe(404);
    expect((await apiStatus(admin, 'abc', 'completed')).status).toBe(404);
    for (const status of ['processing', 'pending', 'failed', 'shipped', '', null, 1]) {
      const response = await apiStatus(admin, id, status);
      expect(response.status).toBe(400);
    }
    const notJson = await admin.post(`/api/admin/orders/${id}/status`, { form: { status: 'completed' } });
    expect(notJson.status).toBe(415);

    const missing = await afterRedirect(admin, await postStatus(admin, 9999, 'completed'));
    expect(missing.toast).toEqual({ title: 'Update failed', description: 'Order not found.', variant: 'destructive' });
    expect(orderRow(ctx, id).status).toBe('processing');
    expect(orderNotes(ctx, ctx.userId)).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- the Orders tab and the list API

describe('the Orders tab', () => {
  test('empty: "No orders yet."', async () => {
    const ctx = await store();
    const admin = await adminWithPin(ctx);
    const response = await admin.get('/admin?tab=orders');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(textOf(mainOf(html))).toContain('No orders yet.');
    expect(textOf(mainOf(html))).not.toContain('coming soon');
  });

  test('lists orders newest first with customer, items, total, payment and status; buttons only on processing ones', async () => {
    const ctx = await store();
    const card = await order(ctx, 'square', [[aviator(ctx).id, 1]]);
    const cash = await order(ctx, 'cod', [[wayfarer(ctx).id, 2]]);
    // One open cash order per account: the delivered one is paid by card.
    const delivered = await order(ctx, 'square', [[aviator(ctx).id, 2]]);
    const admin = await adminWithPin(ctx);
    expect((await apiStatus(admin, delivered.id, 'completed')).status).toBe(200);

    const html = await (await admin.get('/admin?tab=orders')).text();
    const listed = listedOrders(html);
    expect(listed.map((o) => [o.id, o.status])).toEqual([
      [delivered.id, 'completed'],
      [cash.id, 'processing'],
      [card.id, 'processing'],
    ]);
    const [d, c, k] = listed as [(typeof listed)[number], (typeof listed)[number], (typeof listed)[number]];

    // Date in Laguna Beach time: the test clock starts at 18:00 UTC = 10:00 AM PST.
    expect(k.text).toContain(`Order #${card.id}`);
    expect(k.text).toContain('Nov 21, 2026, 10:00 AM');
    expect(k.text).toContain('Pat Profile · pat@example.com · @shopper1');
    expect(k.text).toContain('Ray-Ban Aviator Classic × 1 $171.00');
    expect(k.text).toContain('Total $190.67 · Card');
    expect(c.text).toContain('Ray-Ban Original Wayfarer × 2 $326.00');
    expect(c.text).toContain('Cash on delivery');

    // Status pills in the spec's colours: completed green, processing blue.
    expect(all(d.row, '.bg-emerald-100[data-status="completed"]').map(textOf)).toContain('Delivered');
    expect(all(c.row, '.bg-sky-100[data-status="processing"]').map(textOf)).toContain('Processing');

    const forms = (o: (typeof listed)[number]) =>
      all(o.row, 'form').map((form) => {
        expect(form.getAttribute('method')).toBe('post');
        return { action: form.getAttribute('action') ?? undefined, text: textOf(form) };
      });
    // A delivered card order offers only the after-sale refund (tests/api/after-sale-refunds.test.ts).
    expect(forms(d).map((f) => f.action)).toEqual([`/admin/orders/${delivered.id}/refund`]);
    expect(forms(c)).toEqual([
      { action: `/admin/orders/${cash.id}/status`, text: `Mark Delivered (order #${cash.id})` },
      { action: `/admin/orders/${cash.id}/status`, text: `Cancel Order (order #${cash.id})` },
      // A cart order going by carrier can also be shipped.
      { action: `/admin/orders/${cash.id}/ship`, text: `Carrier USPS UPS FedEx DHL Tracking number Mark Shipped (order #${cash.id})` },
    ]);
    expect(forms(k).map((f) => f.text)).toEqual([
      `Mark Delivered (order #${card.id})`,
      `Cancel Order & Refund (order #${card.id})`,
      `Carrier USPS UPS FedEx DHL Tracking number Mark Shipped (order #${card.id})`,
    ]);
    expect(count(k.row, '[name="status"][value="completed"]')).toBeGreaterThan(0);
    expect(count(k.row, '[name="status"][value="canceled"]')).toBeGreaterThan(0);
  });

  test('filters by status, and a canceled card order shows its refund', async () => {
    const ctx = await store();
    const kept = await order(ctx, 'cod', [[aviator(ctx).id, 1]]);
    const canceled = await order(ctx, 'square', [[aviator(ctx).id, 1]]);
    const admin = await adminWithPin(ctx);
    expect((await apiStatus(admin, canceled.id, 'canceled')).status).toBe(200);

    const only = listedOrders(await (await admin.get('/admin?tab=orders&status=canceled')).text());
    expect(only.map((o) => o.id)).toEqual([canceled.id]);
    expect(only[0]!.text).toContain('Refunded $190.67');
    expect(all(only[0]!.row, '.bg-pink-100[data-status="canceled"]').map(textOf)).toContain('Canceled');
    expect(listedOrders(await (await admin.get('/admin?tab=orders&status=processing')).text()).map((o) => o.id)).toEqual([kept.id]);
    expect(textOf(mainOf(await (await admin.get('/admin?tab=orders&status=failed')).text()))).toContain('No payment failed orders.');
    // An unknown filter shows everything.
    expect(listedOrders(await (await admin.get('/admin?tab=orders&status=bogus')).text())).toHaveLength(2);
  });

  test('GET /api/admin/orders: newest first, with customer, items and payment; ?status= filters', async () => {
    const ctx = await store();
    const first = await order(ctx, 'square', [[aviator(ctx).id, 1]]);
    const second = await bigOrder(ctx, 'cod');
    const admin = await adminWithPin(ctx);

    const response = await admin.get('/api/admin/orders');
    expect(response.status).toBe(200);
    const list = await response.json();
    expect(list.map((o: { id: number }) => o.id)).toEqual([second.id, first.id]);
    expect(list[1]).toMatchObject({
      id: first.id,
      status: 'processing',
      customer: { id: ctx.userId, name: 'Pat Profile', email: 'pat@example.com', username: 'shopper1' },
      items: [{ label: 'Ray-Ban Aviator Classic', quantity: 1, price: 171, purchaseType: 'buy_now' }],
      subtotal: 171,
      shipping: 5.99,
      tax: 13.68,
      total: 190.67,
      paymentMethod: 'square',
      paymentLabel: 'Card',
      paid: true,
      refunded: 0,
    });
    expect(list[0]).toMatchObject({ paymentMethod: 'cod', paymentLabel: 'Cash on delivery', paid: false, total: 542.75 });

    expect(await (await admin.get('/api/admin/orders?status=completed')).json()).toEqual([]);
    expect(await (await admin.get('/api/admin/orders?status=shipped')).json()).toEqual([]);
    expect((await admin.get('/api/admin/orders?status=lost')).status).toBe(400);
  });
});
