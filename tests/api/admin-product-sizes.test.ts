import { describe, expect, test } from 'bun:test';
import { reserve } from '../../src/domain/inventory/stock.ts';
import { variantsOf } from '../../src/domain/inventory/variants.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { fieldError, formFieldsOf, multipart, productStore } from '../helpers/admin-products.ts';
import { byId, seeded } from '../helpers/products.ts';
import { attribute, inputValue, mainOf, textOf, toastOf } from '../helpers/html.ts';

/*
 * The product form's Sizes (issue 38), driven like a browser without JavaScript: one row per
 * size and a blank 'Add a size' row; each row's errors under its own field.
 */

const TEE = 'LM3DWPS-HRD'; // the demo tee sold in S, M, L and XL (seed-variants.ts)

async function teeForm() {
  const ctx = await productStore();
  const admin = await adminWithPin(ctx);
  const tee = seeded(ctx, TEE);
  const page = async () => (await admin.get(`/admin/tshirt/${tee.id}`)).text();
  const save = (fields: Record<string, string>) => admin.post(`/admin/tshirt/${tee.id}`, { body: multipart(fields) });
  const sizes = () => variantsOf(ctx.db, tee.id).map((v) => `${v.size}:${v.quantity}`);
  return { ctx, tee, page, save, sizes };
}

describe('the Sizes rows of the product form', () => {
  test('one labelled row per size with its stock, then an empty "Add a size" row', async () => {
    const { page } = await teeForm();
    const main = mainOf(await page());
    expect(textOf(main)).toContain('Sizes');
    expect([0, 1, 2, 3, 4].map((n) => inputValue(main, `variants.${n}.size`))).toEqual(['S', 'M', 'L', 'XL', '']);
    expect([0, 1, 2, 3].map((n) => inputValue(main, `variants.${n}.quantity`))).toEqual(['2', '0', '3', '1']);
    expect(textOf(main)).toContain('Add a size');
    for (const field of ['size', 'sku', 'quantity', 'price']) {
      const id = attribute(main, `input[name="variants.4.${field}"]`, 'id');
      expect(attribute(main, `label[for="${id}"]`, 'for'), field).toBe(id);
    }
  });

  test('filling the blank row adds a size; a changed stock moves by the difference; the product keeps the sizes joined', async () => {
    const { ctx, tee, page, save, sizes } = await teeForm();
    const fields = formFieldsOf(await page());
    const response = await save({
      ...fields,
      'variants.1.quantity': '4',
      'variants.4.size': 'XXL',
      'variants.4.sku': 'LM3DWPS-HRD-XXL',
      'variants.4.quantity': '2',
    });
    expect(response.status).toBe(303);
    expect(sizes()).toEqual(['S:2', 'M:4', 'L:3', 'XL:1', 'XXL:2']);
    expect(byId(ctx, tee.id)).toMatchObject({ size: 'S, M, L, XL, XXL', quantity: 12 });
    expect(inputValue(mainOf(await page()), 'variants.5.size')).toBe('');
  });

  test('a stock that moved since the form opened: 409, the message under that size, the form now carries the new count', async () => {
    const { ctx, tee, page, save, sizes } = await teeForm();
    const fields = formFieldsOf(await page());
    const large = variantsOf(ctx.db, tee.id)[2]!;
    expect(reserve(ctx.db, { productId: tee.id, variantId: large.id, quantity: 1, reason: 'order_line', owner: 'order:777', now: 1 })).toBe(true);
    const response = await save({ ...fields, 'variants.2.quantity': '5' });
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(fieldError(mainOf(html), 'variants-2-quantity')).toBe('Stock changed since you opened this form: now 2');
    expect(toastOf(html)?.title).toBe('Update failed');
    expect(sizes()).toEqual(['S:2', 'M:0', 'L:2', 'XL:1']);
    // Sent again as shown, the admin's 5 is applied against the count they have now seen.
    expect((await save(formFieldsOf(html))).status).toBe(303);
    expect(sizes()).toEqual(['S:2', 'M:0', 'L:5', 'XL:1']);
  });

  test('Remove: a free size goes; a size with a unit held stays, with the reason under its Remove box', async () => {
    const { ctx, tee, page, save, sizes } = await teeForm();
    const small = variantsOf(ctx.db, tee.id)[0]!;
    expect(reserve(ctx.db, { productId: tee.id, variantId: small.id, quantity: 1, reason: 'order_line', owner: 'order:778', now: 1 })).toBe(true);
    const fields = formFieldsOf(await page());
    const refused = await save({ ...fields, 'variants.0.remove': 'on' });
    expect(refused.status).toBe(409);
    expect(fieldError(mainOf(await refused.text()), 'variants-0-remove')).toBe('Size S cannot be removed: units of it are held or sold.');
    expect(sizes()).toEqual(['S:1', 'M:0', 'L:3', 'XL:1']);

    expect((await save({ ...fields, 'variants.1.remove': 'on' })).status).toBe(303);
    expect(sizes()).toEqual(['S:1', 'L:3', 'XL:1']);
    expect(byId(ctx, tee.id)).toMatchObject({ size: 'S, L, XL', quantity: 5 });
  });

  test('two rows with one size, and an empty SKU: 400, each message under its field, nothing changed', async () => {
    const { page, save, sizes } = await teeForm();
    const fields = formFieldsOf(await page());
    const response = await save({ ...fields, 'variants.3.size': 'm', 'variants.2.sku': '' });
    expect(response.status).toBe(400);
    const main = mainOf(await response.text());
    expect(fieldError(main, 'variants-3-size')).toBe('Sizes must differ: m is listed twice.');
    expect(fieldError(main, 'variants-2-sku')).toBe('SKU is required');
    expect(inputValue(main, 'variants.3.size')).toBe('m');
    expect(sizes()).toEqual(['S:2', 'M:0', 'L:3', 'XL:1']);
  });
});
