import { describe, expect, test } from 'bun:test';
import { adminWithPin } from '../helpers/actors.ts';
import { idsOfType, listedIds, productStore, ROUTE, SEEDED, type Kind } from '../helpers/admin-products.ts';
import { seeded } from '../helpers/products.ts';
import { attribute, headingOf, hrefsOf, inputValue, links, mainOf, textOf } from '../helpers/html.ts';

/*
 * GET /admin, the admin panel (spec section 2, "Admin panel"): one tab per product type, the
 * search within a tab, the Orders and Settings tabs.
 */

describe('the admin panel', () => {
  test('default tab is Sunglasses: heading, tabs, Back to Store, Add button, only sunglasses listed', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const response = await admin.get('/admin');
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Admin Panel');
    expect(links(main)).toContainEqual({ href: '/', text: 'Back to Store' });
    expect(links(main, 'a[aria-current="page"]')).toContainEqual({ href: '/admin?tab=sunglasses', text: 'Sunglasses' });
    for (const [tab, label] of [
      ['tshirt', 'T-Shirts'],
      ['shoe', 'Shoes'],
      ['book', 'Books'],
      ['orders', 'Orders'],
      ['settings', 'Settings'],
    ] as const) {
      expect(links(main, 'a[class]:not([aria-current])')).toContainEqual({ href: `/admin?tab=${tab}`, text: label });
    }
    expect(links(main)).toContainEqual({ href: '/admin/product/new?type=sunglasses', text: 'Add Sunglasses' });
    expect(listedIds(html)).toEqual(idsOfType(ctx, 'sunglasses'));
    expect(textOf(main)).toContain('Ray-Ban');
    expect(textOf(main)).toContain('RB3025-L0205');
    expect(textOf(main)).not.toContain('Patagonia');
    expect(textOf(main)).not.toContain('BK-JAWS-001');
  });

  test.each(['sunglasses', 'tshirt', 'shoe', 'book'] as Kind[])('?tab=%s lists only that type, with Edit and Delete links per row', async (type) => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get(`/admin?tab=${type}`)).text();
    const main = mainOf(html);
    const { model, name, otherModel, otherName } = SEEDED[type];
    expect(textOf(main)).toContain(name);
    expect(textOf(main)).toContain(model);
    expect(textOf(main)).not.toContain(otherName);
    expect(textOf(main)).not.toContain(otherModel);

    const ids = idsOfType(ctx, type);
    expect(ids).toHaveLength(7);
    expect(listedIds(html)).toEqual(ids);
    const hrefs = hrefsOf(main);
    for (const id of ids) {
      expect(hrefs).toContain(`${ROUTE[type]}/${id}`);
      expect(hrefs).toContain(`/admin/products/${id}/delete`);
    }
    // No row links to another type's form route.
    const otherRoutes = Object.values(ROUTE).filter((route) => route !== ROUTE[type]);
    expect(hrefs.filter((href) => otherRoutes.some((route) => new RegExp(`^${route}/\\d+$`).test(href)))).toEqual([]);
    expect(attribute(main, 'a[aria-current="page"]', 'href')).toBe(`/admin?tab=${type}`);
  });

  test('an unknown tab falls back to Sunglasses', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get('/admin?tab=nonsense')).text();
    expect(listedIds(html)).toEqual(idsOfType(ctx, 'sunglasses'));
  });

  test('search is case-insensitive on brand', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get('/admin?q=ray-ban')).text();
    expect(listedIds(html)).toEqual([seeded(ctx, 'RB3025-L0205').id, seeded(ctx, 'RB2140-901').id].sort((a, b) => a - b));
    expect(inputValue(mainOf(html), 'q')).toBe('ray-ban');
    expect(inputValue(mainOf(html), 'tab')).toBe('sunglasses');

    const vans = await (await admin.get('/admin?tab=tshirt&q=VANS')).text();
    expect(listedIds(vans)).toEqual([seeded(ctx, 'VN000GGG-BLK').id]);
  });

  test('search matches part of a SKU, in any case', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    expect(listedIds(await (await admin.get('/admin?q=l0205')).text())).toEqual([seeded(ctx, 'RB3025-L0205').id]);
    expect(listedIds(await (await admin.get('/admin?tab=book&q=bk-jaws')).text())).toEqual([seeded(ctx, 'BK-JAWS-001').id]);
    expect(listedIds(await (await admin.get('/admin?tab=shoe&q=m990')).text())).toEqual([seeded(ctx, 'M990GL6').id]);
  });

  test('search does not match words found only in the description', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get('/admin?q=teardrop')).text();
    expect(listedIds(html)).toEqual([]);
    expect(textOf(mainOf(html))).toContain('No products match “teardrop”.');
    // A book's author lives in its description.
    expect(listedIds(await (await admin.get('/admin?tab=book&q=hemingway')).text())).toEqual([]);
  });

  test('search is limited to the tab', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    expect(listedIds(await (await admin.get('/admin?tab=shoe&q=rb3025')).text())).toEqual([]);
  });

  test("an empty store shows 'No products available. Add your first product.' on every product tab", async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    for (const type of ['sunglasses', 'tshirt', 'shoe', 'book']) {
      const html = await (await admin.get(`/admin?tab=${type}`)).text();
      expect(textOf(mainOf(html))).toContain('No products available. Add your first product.');
      expect(listedIds(html)).toEqual([]);
    }
  });

  test('the Orders tab lists orders (none yet) and Settings shows its coming-soon text; no products', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const orders = await admin.get('/admin?tab=orders');
    expect(orders.status).toBe(200);
    const ordersHtml = await orders.text();
    expect(textOf(mainOf(ordersHtml))).toContain('No orders yet.');
    expect(listedIds(ordersHtml)).toEqual([]);
    expect(attribute(mainOf(ordersHtml), 'a[aria-current="page"]', 'href')).toBe('/admin?tab=orders');

    const settingsHtml = await (await admin.get('/admin?tab=settings')).text();
    expect(textOf(mainOf(settingsHtml))).toContain('Store settings are coming soon');
    expect(listedIds(settingsHtml)).toEqual([]);
  });
});
