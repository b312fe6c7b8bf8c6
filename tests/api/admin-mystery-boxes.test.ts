import { describe, expect, test } from 'bun:test';
import { adminWithPin, quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { boxOf, priceOf } from '../helpers/boxes.ts';
import { all, attribute, text, textOf, toastOf } from '../helpers/html.ts';

/*
 * The Promotions tab's mystery box section (issue 29, items 2 and 5): each box's status, price
 * form (the same rule as the API) and odds, the draws, their CSV; and the hint under the tick box.
 */

describe('admin: mystery boxes', () => {
  test('the Promotions tab shows each box, the price form saves or refuses with the reason, draws are listed and exported', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1, 3]);
    const admin = await adminWithPin(ctx);
    const tab = await (await admin.get('/admin?tab=promotions')).text();
    expect(attribute(tab, '[data-admin-box="sunglasses"] [data-box-status]', 'data-box-status')).toBe('on_sale');
    expect(attribute(tab, '[data-admin-box="book"] [data-box-status]', 'data-box-status')).toBe('empty');
    expect(textOf(all(tab, '[data-admin-box="sunglasses"] td')[2]!)).toBe('1 of 4 (25%)');

    const post = (price: string) => admin.post('/admin/promotions/boxes/sunglasses/price', { form: { price } });
    const refused = await post(((set.cheapest + 1) / 100).toFixed(2));
    expect(refused.status).toBe(303);
    expect(toastOf(await (await admin.get(refused.headers.get('location')!)).text())?.description).toContain('at most');
    expect(priceOf(ctx, 'sunglasses')).toBe(set.priceCents);
    expect((await post('abc')).status).toBe(303);
    expect(priceOf(ctx, 'sunglasses')).toBe(set.priceCents);
    const saved = await post((set.cheapest / 100).toFixed(2));
    expect(toastOf(await (await admin.get(saved.headers.get('location')!)).text())?.title).toBe('Box price saved');
    expect(priceOf(ctx, 'sunglasses')).toBe(set.cheapest);

    const { client } = quickShopper(ctx, 'drawn');
    const bought = await client.post('/api/mystery-boxes/sunglasses/orders', { json: {}, headers: { 'idempotency-key': crypto.randomUUID() } });
    const { orderId } = await bought.json();
    const after = await (await admin.get('/admin?tab=promotions')).text();
    expect(text(after, `[data-draw="${orderId}"] a`)).toBe(`#${orderId}`);
    const csv = await admin.get('/admin/promotions/boxes.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Draw,Drawn at,Order,Order status,Buyer,Box,Box price,Product id,Product,Seed hash,Size');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${orderId},processing,drawn,Sunglasses mystery box,`);
  });

  test('the export and the form are admin only', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1]);
    const { client } = quickShopper(ctx, 'curious');
    expect((await client.get('/admin/promotions/boxes.csv')).headers.get('content-type')).not.toContain('text/csv');
    expect((await ctx.client().get('/admin/promotions/boxes.csv')).status).toBe(302);
    await client.post('/admin/promotions/boxes/sunglasses/price', { form: { price: '1.00' } });
    expect(priceOf(ctx, 'sunglasses')).toBe(set.priceCents);
  });

  test('the product form explains the Mystery box tick box', async () => {
    const ctx = await seededApp();
    const admin = await adminWithPin(ctx);
    const form = await (await admin.get('/admin/product/new')).text();
    expect(text(form, '#mysteryBoxEnabled-hint')).toContain('mystery box on /mystery');
    expect(attribute(form, 'input[name="mysteryBoxEnabled"]', 'aria-describedby')).toBe('mysteryBoxEnabled-hint');
  });
});
