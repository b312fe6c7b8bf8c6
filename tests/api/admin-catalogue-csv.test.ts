import { expect, test } from 'bun:test';
import { markSold, reserve } from '../../src/domain/inventory/stock.ts';
import { variantsOf } from '../../src/domain/inventory/variants.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { productStore } from '../helpers/admin-products.ts';
import { seeded } from '../helpers/products.ts';
import { hrefsOf, mainOf } from '../helpers/html.ts';

/* Issue 38: the admin's catalogue export lists variants, one row per size, with the ledger's counts. */

const parse = (csv: string) =>
  csv
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));

test('GET /admin/products.csv: one row per size with available, stocked, held and sold; linked from the products list', async () => {
  const ctx = await productStore();
  const admin = await adminWithPin(ctx);
  const tee = seeded(ctx, 'LM3DWPS-HRD');
  const [small, , large] = variantsOf(ctx.db, tee.id);
  expect(reserve(ctx.db, { productId: tee.id, variantId: large!.id, quantity: 2, reason: 'order_line', owner: 'order:901', now: 1 })).toBe(true);
  expect(reserve(ctx.db, { productId: tee.id, variantId: small!.id, quantity: 1, reason: 'order_line', owner: 'order:902', now: 1 })).toBe(true);
  markSold(ctx.db, 'order:902', 2);

  expect(hrefsOf(mainOf(await (await admin.get('/admin?tab=tshirt')).text()))).toContain('/admin/products.csv?type=tshirt');
  const response = await admin.get('/admin/products.csv?type=tshirt');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toStartWith('attachment; filename="catalogue-tshirt-');
  const [header, ...rows] = parse(await response.text());
  expect(header).toEqual(['Product', 'Name', 'Type', 'Variant', 'SKU', 'Size', 'Colour', 'Price', 'Available', 'Stocked', 'Held', 'Sold', 'Archived']);
  expect(rows.every((row) => row[2] === 'tshirt')).toBe(true);
  const price = (tee.priceCents / 100).toFixed(2);
  const teeRows = rows.filter((row) => row[0] === String(tee.id)).map((row) => [row[4], row[5], row[7], row[8], row[9], row[10], row[11]]);
  expect(teeRows).toEqual([
    ['LM3DWPS-HRD-S', 'S', price, '1', '2', '0', '1'],
    ['LM3DWPS-HRD-M', 'M', price, '0', '0', '0', '0'],
    ['LM3DWPS-HRD-L', 'L', price, '1', '3', '2', '0'],
    ['LM3DWPS-HRD-XL', 'XL', price, '1', '1', '0', '0'],
  ]);

  const everything = parse(await (await admin.get('/admin/products.csv')).text());
  expect(new Set(everything.slice(1).map((row) => row[2]))).toEqual(new Set(['sunglasses', 'tshirt', 'shoe', 'book']));
  expect((await ctx.client().get('/admin/products.csv')).status).not.toBe(200);
});
