import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products, stockReservations } from '../../src/db/schema.ts';
import { stockOf } from '../../src/domain/inventory/stock-counts.ts';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import { adminWithPin, buyNowBody, quickShopper } from '../helpers/actors.ts';
import { fieldError, formFieldsOf, multipart } from '../helpers/admin-products.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { auctionStore, putAuction } from '../helpers/auctions.ts';
import { inputValue, mainOf, toastOf } from '../helpers/html.ts';
import { startTeam, teamProduct } from '../helpers/teams.ts';

/*
 * The "Stock overwritten" defect of issue 34: the admin's product form (and the API) used to
 * write the quantity it was opened with as an absolute value, so a unit a team, an auction or an
 * order took meanwhile came back on the shelf and sold twice. Now the save moves the stock by the
 * admin's difference from the count they saw, and a count that moved is a 409 naming the new one.
 */

const DAY = 24 * 60 * 60 * 1000;
const productRow = (ctx: TestApp, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get()!;
const holdsOf = (ctx: TestApp, id: number) => ctx.db.select().from(stockReservations).where(eq(stockReservations.productId, id)).all();
const ledger = (ctx: TestApp, id: number) => stockOf(ctx.db, id)!;

describe('the admin product form, opened before a team took a unit', () => {
  async function staleForm() {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    const admin = await adminWithPin(ctx);
    const fields = formFieldsOf(await (await admin.get(`/admin/product/${productId}`)).text());
    expect(fields).toMatchObject({ quantity: '5', quantitySeen: '5' });
    // Meanwhile a shopper starts a team: one unit held for the place.
    expect((await startTeam(quickShopper(ctx, 'alice').client, productId)).status).toBe(201);
    expect(productRow(ctx, productId).quantity).toBe(4);
    return { ctx, productId, admin, fields };
  }

  test('saving it with a new quantity: 409, the words on the field, the form kept, nothing changed', async () => {
    const { ctx, productId, admin, fields } = await staleForm();
    const before = { product: productRow(ctx, productId), holds: holdsOf(ctx, productId), ledger: ledger(ctx, productId) };

    const response = await admin.post(`/admin/product/${productId}`, { body: multipart({ ...fields, quantity: '9', price: '30' }) });
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(fieldError(html, 'quantity')).toBe('Stock changed since you opened this form: now 4');
    expect(toastOf(html)?.description).toBe('Stock changed since you opened this form: now 4');
    // The form is kept as typed, and now carries the count it names.
    expect(inputValue(mainOf(html), 'quantity')).toBe('9');
    expect(inputValue(mainOf(html), 'price')).toBe('30');
    expect(formFieldsOf(html).quantitySeen).toBe('4');
    expect({ product: productRow(ctx, productId), holds: holdsOf(ctx, productId), ledger: ledger(ctx, productId) }).toEqual(before);
  });

  test('saving the form shown again (the current count): 9 available, the stock moved by 5, the team unit still held', async () => {
    const { ctx, productId, admin, fields } = await staleForm();
    const before = ledger(ctx, productId);
    const refused = await admin.post(`/admin/product/${productId}`, { body: multipart({ ...fields, quantity: '9' }) });
    const again = formFieldsOf(await refused.text());

    expect((await admin.post(`/admin/product/${productId}`, { body: multipart(again) })).status).toBe(303);
    expect(ledger(ctx, productId)).toEqual({ ...before, stocked: before.stocked + 5, available: 9 });
    expect(holdsOf(ctx, productId).map((hold) => [hold.reason, hold.state])).toEqual([['team_place', 'held']]);

    // The team expires: its unit comes back on top of the admin's 9, not in place of one of them.
    ctx.clock.advance(DAY + 60_000);
    await runTeamJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
    expect(ledger(ctx, productId)).toEqual({ ...before, stocked: before.stocked + 5, available: 10, held: 0 });
  });

  test('saving it with only a new price: saved, the stock left as the team left it', async () => {
    const { ctx, productId, admin, fields } = await staleForm();
    const before = ledger(ctx, productId);
    expect((await admin.post(`/admin/product/${productId}`, { body: multipart({ ...fields, price: '31' }) })).status).toBe(303);
    expect(productRow(ctx, productId)).toMatchObject({ priceCents: 3100, quantity: 4 });
    expect(ledger(ctx, productId)).toEqual(before);
  });
});

test('a form opened before a paid buy-now order: the stale save is a 409; the sold unit stays sold', async () => {
  const ctx = await seededApp();
  const productId = teamProduct(ctx, 2);
  const admin = await adminWithPin(ctx);
  const fields = formFieldsOf(await (await admin.get(`/admin/product/${productId}`)).text());
  const bought = await quickShopper(ctx, 'bea').client.post('/api/orders', { json: buyNowBody(productId, productRow(ctx, productId).priceCents) });
  expect(bought.status).toBe(201);
  const before = ledger(ctx, productId);
  expect(before).toMatchObject({ available: 1, held: 0, sold: 1 });

  // The old save would have written 2 back: two units for sale, one of them already sold.
  const stale = await admin.post(`/admin/product/${productId}`, { body: multipart({ ...fields, quantity: '3' }) });
  expect(stale.status).toBe(409);
  expect(fieldError(await stale.text(), 'quantity')).toBe('Stock changed since you opened this form: now 1');
  expect(ledger(ctx, productId)).toEqual(before);
});

describe('PUT /api/products/{id} while an auction holds a unit', () => {
  async function auctionRunning() {
    const ctx = await auctionStore();
    const admin = ctx.admin;
    // The admin read 3 on the shelf; then the auction set-up took one.
    expect((await admin.request('PUT', `/api/products/${ctx.product.id}`, { json: { quantity: 3, quantitySeen: 1 } })).status).toBe(200);
    expect((await putAuction(admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
    expect(productRow(ctx, ctx.product.id).quantity).toBe(2);
    return { ctx, admin, id: ctx.product.id };
  }

  test('a stale quantitySeen: 409 { message, fields: { quantity } }, nothing changed', async () => {
    const { ctx, admin, id } = await auctionRunning();
    const before = { product: productRow(ctx, id), holds: holdsOf(ctx, id) };
    const response = await admin.request('PUT', `/api/products/${id}`, { json: { quantity: 7, quantitySeen: 3, price: 12 } });
    expect(response.status).toBe(409);
    const message = 'Stock changed since you opened this form: now 2';
    expect(await response.json()).toEqual({ message, fields: { quantity: message } });
    expect({ product: productRow(ctx, id), holds: holdsOf(ctx, id) }).toEqual(before);
  });

  test('the current quantitySeen: the stock moves by the difference, the auction unit stays held', async () => {
    const { ctx, admin, id } = await auctionRunning();
    const before = ledger(ctx, id);
    const response = await admin.request('PUT', `/api/products/${id}`, { json: { quantity: 7, quantitySeen: 2 } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { quantity: number }).quantity).toBe(7);
    expect(ledger(ctx, id)).toEqual({ stocked: before.stocked + 5, available: 7, held: 1, sold: 0 });
    expect(holdsOf(ctx, id).map((hold) => [hold.reason, hold.state])).toEqual([['auction', 'held']]);
  });

  test('no quantitySeen: compared with the count read in the request, never a blind write over the held unit', async () => {
    const { ctx, admin, id } = await auctionRunning();
    const before = ledger(ctx, id);
    expect((await admin.request('PUT', `/api/products/${id}`, { json: { quantity: 4 } })).status).toBe(200);
    expect(ledger(ctx, id)).toEqual({ ...before, stocked: before.stocked + 2, available: 4 });
    // A field other than the quantity leaves the stock alone.
    expect((await admin.request('PUT', `/api/products/${id}`, { json: { price: 450 } })).status).toBe(200);
    expect(ledger(ctx, id)).toEqual({ ...before, stocked: before.stocked + 2, available: 4 });
  });

  test('a quantitySeen that is not a count: 400 on that field, nothing changed', async () => {
    const { ctx, admin, id } = await auctionRunning();
    const before = productRow(ctx, id);
    const response = await admin.request('PUT', `/api/products/${id}`, { json: { quantity: 4, quantitySeen: 'lots' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fields: Record<string, string> }).fields).toEqual({
      quantitySeen: 'The quantity you saw must be a whole number of at least 0.',
    });
    expect(productRow(ctx, id)).toEqual(before);
  });
});
