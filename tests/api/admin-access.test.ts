import { describe, expect, test } from 'bun:test';
import { adminWithoutPin, shopper } from '../helpers/actors.ts';
import { fieldError, newForm, productStore } from '../helpers/admin-products.ts';
import { byId, productCount, seeded, uploads } from '../helpers/products.ts';
import { TEST_PIN } from '../helpers/app.ts';
import { all, attribute, count, headingOf, inputValue, links, mainOf, textOf, toastOf } from '../helpers/html.ts';

/*
 * Who may open the server-rendered admin pages (spec section 2, "Admin panel"; section 8, the
 * PIN messages): signed out, a shopper, an admin before and after the PIN. Driven like a browser
 * without JavaScript: plain GETs and multipart form posts.
 */

describe('access to the admin pages', () => {
  const formPaths = [
    '/admin/product/new',
    '/admin/product/new?type=book',
    '/admin/tshirt/new',
    '/admin/shoe/new',
    '/admin/book/new',
    '/admin/product/1',
    '/admin/tshirt/8',
    '/admin/shoe/15',
    '/admin/book/22',
  ];

  test('signed out: /admin and every form route redirect (302) to /auth?next={path}', async () => {
    const ctx = await productStore();
    const visitor = ctx.client();
    for (const path of ['/admin', '/admin?tab=book', ...formPaths, '/admin/products/1/delete']) {
      const response = await visitor.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(`/auth?next=${encodeURIComponent(path)}`);
    }
  });

  test('signed out: a form post is redirected to /auth and stores nothing', async () => {
    const ctx = await productStore({ seed: false });
    const response = await ctx.client().post('/admin/tshirt/new', { body: newForm('tshirt') });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/auth?next=${encodeURIComponent('/admin/tshirt/new')}`);
    expect(productCount(ctx)).toBe(0);
  });

  test('a signed-in non-admin gets the 403 Access Denied page on /admin and the form routes', async () => {
    const ctx = await productStore();
    const { client } = await shopper(ctx, 'shopper1', { withProfile: false });
    for (const path of ['/admin', ...formPaths, '/admin/products/1/delete']) {
      const response = await client.get(path);
      expect(response.status, path).toBe(403);
      const main = mainOf(await response.text());
      expect(headingOf(main)).toBe('Access Denied');
      expect(textOf(main)).toContain('Admin Access Required');
      expect(links(main)).toContainEqual({ href: '/', text: 'Go to Home' });
      expect(textOf(main)).not.toContain('Admin Panel');
    }
  });

  test('a signed-in non-admin cannot create or delete through the forms', async () => {
    const ctx = await productStore();
    const { client } = await shopper(ctx, 'shopper1', { withProfile: false });
    const before = productCount(ctx);
    const create = await client.post('/admin/tshirt/new', { body: newForm('tshirt') });
    expect(create.status).toBe(403);
    expect(textOf(mainOf(await create.text()))).toContain('Access Denied');
    const target = seeded(ctx, 'RB3025-L0205');
    const remove = await client.post(`/admin/products/${target.id}/delete`);
    expect(remove.status).toBe(403);
    expect(productCount(ctx)).toBe(before);
    expect(byId(ctx, target.id)).toBeDefined();
    expect(uploads(ctx)).toEqual([]);
  });
});

describe('the PIN screen in front of the admin pages', () => {
  test('GET /admin without the PIN shows Admin Authentication with Cancel (to /) and Verify PIN', async () => {
    const ctx = await productStore();
    const admin = await adminWithoutPin(ctx);
    const response = await admin.get('/admin');
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Admin Authentication');
    expect(links(main)).toContainEqual({ href: '/', text: 'Cancel' });
    expect(all(main, 'button[type="submit"]').map(textOf)).toContain('Verify PIN');
    expect(count(main, '[action="/admin/pin"]')).toBeGreaterThan(0);
    expect(inputValue(main, 'next')).toBe('/admin');
    expect(attribute(main, 'input[name="pin"]', 'type')).toBe('password');
    expect(textOf(main)).not.toContain('Ray-Ban');
    expect(main.innerHTML).not.toContain('Back to Store');
  });

  test('GET /admin/tshirt/new without the PIN shows the PIN screen, whose next is that path; the right PIN leads back there', async () => {
    const ctx = await productStore();
    const admin = await adminWithoutPin(ctx);
    const response = await admin.get('/admin/tshirt/new');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(headingOf(html)).toBe('Admin Authentication');
    expect(inputValue(mainOf(html), 'next')).toBe('/admin/tshirt/new');
    expect(count(mainOf(html), '[name="sku"]')).toBe(0);

    const verified = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin/tshirt/new' } });
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe('/admin/tshirt/new');

    const form = await admin.get('/admin/tshirt/new');
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(headingOf(formHtml)).toBe('Add T-Shirt');
    expect(toastOf(formHtml)).toEqual({ title: 'Access granted', description: 'Welcome to the admin panel.', variant: 'default' });
  });

  test('the PIN screen keeps the query of the page asked for', async () => {
    const ctx = await productStore();
    const admin = await adminWithoutPin(ctx);
    const html = await (await admin.get('/admin/product/new?type=book')).text();
    expect(inputValue(mainOf(html), 'next')).toBe('/admin/product/new?type=book');
  });

  test('a form post without the PIN is refused (403, PIN screen) and stores nothing', async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithoutPin(ctx);
    const response = await admin.post('/admin/tshirt/new', { body: newForm('tshirt') });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(headingOf(html)).toBe('Admin Authentication');
    expect(fieldError(html, 'pin') ?? textOf(mainOf(html))).toContain('Enter the admin PIN to continue.');
    expect(toastOf(html)).toEqual({ title: 'Access denied', description: 'Enter the admin PIN to continue.', variant: 'destructive' });
    expect(productCount(ctx)).toBe(0);
    expect(uploads(ctx)).toEqual([]);
  });

  test('a delete post without the PIN is refused and the product stays', async () => {
    const ctx = await productStore();
    const admin = await adminWithoutPin(ctx);
    const target = seeded(ctx, 'BK-JAWS-001');
    const response = await admin.post(`/admin/products/${target.id}/delete`);
    expect(response.status).toBe(403);
    expect(headingOf(await response.text())).toBe('Admin Authentication');
    expect(byId(ctx, target.id)).toBeDefined();
  });
});

describe('the PIN never reaches the admin pages', () => {
  test('no admin page, before or after the PIN, with or without errors, contains it', async () => {
    const ctx = await productStore();
    const admin = await adminWithoutPin(ctx);
    const bodies: string[] = [];
    const tshirt = seeded(ctx, '38504-WHI');
    bodies.push(await (await admin.get('/admin')).text());
    bodies.push(await (await admin.get('/admin/tshirt/new')).text());
    bodies.push(await (await admin.post('/admin/pin', { form: { pin: '000000', next: '/admin' } })).text());
    bodies.push(await (await admin.post('/admin/tshirt/new', { body: newForm('tshirt') })).text());
    expect(bodies.every((html) => headingOf(html) === 'Admin Authentication')).toBe(true);

    expect((await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin' } })).status).toBe(303);
    const paths = [
      '/admin',
      '/admin?tab=tshirt',
      '/admin?tab=shoe',
      '/admin?tab=book',
      '/admin?tab=orders',
      '/admin?tab=settings',
      '/admin/product/new',
      '/admin/product/new?type=book',
      '/admin/tshirt/new',
      '/admin/shoe/new',
      '/admin/book/new',
      `/admin/tshirt/${tshirt.id}`,
      `/admin/products/${tshirt.id}/delete`,
      '/admin/tshirt/99999',
    ];
    for (const path of paths) bodies.push(await (await admin.get(path)).text());
    bodies.push(await (await admin.post('/admin/tshirt/new', { body: newForm('tshirt', { sku: '', price: '0' }) })).text());
    expect(bodies).toHaveLength(4 + paths.length + 1);
    for (const html of bodies) expect(html).not.toContain(TEST_PIN);
  });
});
