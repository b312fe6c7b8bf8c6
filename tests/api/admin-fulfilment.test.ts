import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orders, products } from '../../src/db/schema.ts';
import { csvCell } from '../../src/shared/csv.ts';
import { buyNowBody, COMPLETE_PROFILE, completeProfile } from '../helpers/actors.ts';
import { type Store, postForm, seededStore, signedInAdmin, signedInUser } from '../helpers/admin-tools.ts';
import { textOf } from '../helpers/html.ts';

/* The admin delivers from the Orders tab: who, where, how, a packing slip, a CSV, and a confirmation before each change. */

async function placedOrder(ctx: Store, notes?: string) {
  const shopper = signedInUser(ctx, `shopper${Math.random().toString(36).slice(2, 8)}`);
  completeProfile(ctx, shopper.id);
  const product = ctx.db.select().from(products).where(eq(products.productType, 'sunglasses')).get()!;
  const response = await shopper.client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  if (notes !== undefined) ctx.db.update(orders).set({ notes }).where(eq(orders.id, id)).run();
  return { id, product };
}

describe('Orders tab', () => {
  test('each order shows the address, phone, delivery method, notes and items, with a packing slip link', async () => {
    const ctx = await seededStore();
    const { id, product } = await placedOrder(ctx, 'Ring twice, gate code 4417');
    const admin = await signedInAdmin(ctx);
    const html = await (await admin.get('/admin?tab=orders')).text();
    const text = textOf(html);
    expect(text).toContain('123 Coast Hwy, Laguna Beach CA 92651');
    expect(text).toContain(COMPLETE_PROFILE.phone);
    expect(text).toContain('Automatic Delivery - Free (within 2-3 hours)');
    expect(text).toContain('Ring twice, gate code 4417');
    expect(text).toContain(product.brand);
    expect(html).toContain(`href="/admin/orders/${id}/packing-slip"`);

    const slip = await admin.get(`/admin/orders/${id}/packing-slip`);
    expect(slip.status).toBe(200);
    const slipText = textOf(await slip.text());
    expect(slipText).toContain(`Order #${id}`);
    expect(slipText).toContain('123 Coast Hwy');
    expect(slipText).toContain('Ring twice, gate code 4417');
    expect(slipText).toContain('Print packing slip');
  });

  test('Mark Delivered and Cancel & Refund ask first: the button shows a confirmation step and changes nothing', async () => {
    const ctx = await seededStore();
    const { id } = await placedOrder(ctx);
    const admin = await signedInAdmin(ctx);
    for (const [status, words] of [
      ['completed', `Mark Delivered: order #${id}?`],
      ['canceled', `Cancel Order & Refund: order #${id}?`],
    ] as const) {
      const step = await postForm(admin, `/admin/orders/${id}/status`, { status });
      expect(step.status).toBe(200);
      const html = await step.text();
      expect(textOf(html)).toContain(words);
      expect(html).toContain('name="confirmed" value="yes"');
      expect(ctx.db.select().from(orders).where(eq(orders.id, id)).get()?.status).toBe('processing');
    }
    // Anything but 'yes' is not a confirmation either.
    await postForm(admin, `/admin/orders/${id}/status`, { status: 'canceled', confirmed: 'true' });
    expect(ctx.db.select().from(orders).where(eq(orders.id, id)).get()?.status).toBe('processing');
    const done = await postForm(admin, `/admin/orders/${id}/status`, { status: 'completed', confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(ctx.db.select().from(orders).where(eq(orders.id, id)).get()?.status).toBe('completed');
  });

  test('CSV export follows the status filter and cannot smuggle formulas into a spreadsheet', async () => {
    const ctx = await seededStore();
    const first = await placedOrder(ctx, '=HYPERLINK("http://evil.example","click")');
    const second = await placedOrder(ctx, 'Leave at the door, "front"');
    const admin = await signedInAdmin(ctx);
    expect((await admin.post(`/api/admin/orders/${second.id}/status`, { json: { status: 'completed' } })).status).toBe(200);

    const all = await admin.get('/admin/orders.csv');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toContain('text/csv');
    expect(all.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-all-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await all.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Order,Placed,Status,Customer,E-mail,Phone,Address,Delivery,Items,Sizes,Subtotal,Shipping,Tax,Total,Payment,Refunded,Notes');
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.startsWith(`${first.id},`))).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(lines.find((l) => l.startsWith(`${second.id},`))).toContain('"Leave at the door, ""front"""');

    const delivered = (await (await admin.get('/admin/orders.csv?status=completed')).text()).trim().split('\r\n');
    expect(delivered.map((l) => l.split(',')[0])).toEqual(['Order', String(second.id)]);
    // Not for shoppers or visitors.
    expect((await ctx.client().get('/admin/orders.csv')).status).toBe(302);
    const shopper = signedInUser(ctx, 'curious');
    expect((await shopper.client.get('/admin/orders.csv')).headers.get('content-type')).not.toContain('text/csv');
  });

  test('csvCell neutralises every formula prefix and quotes separators', () => {
    for (const danger of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) expect(csvCell(danger).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });
});
