import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { games, orderItems, plays, products } from '../../src/db/schema.ts';
import { afterRedirect, player, postForm, seededStore, signedInAdmin, signedInUser, type Store } from '../helpers/admin-tools.ts';
import type { TestClient } from '../helpers/app.ts';
import { fivePicks } from '../helpers/games.ts';
import { settledBookGame } from '../helpers/settled-game.ts';
import { all, headingOf, mainOf, textOf } from '../helpers/html.ts';

/*
 * Issue 27, item 11: a product with orders or games is archived, not deleted. It leaves the
 * shop (lists, search, sitemap, its pages, buying and playing), its orders and game records
 * stay and keep its name, the admin is told which will happen and can restore it. A product
 * without history is still deleted.
 */

const byModel = (ctx: Store, model: string) => ctx.db.select().from(products).where(eq(products.model, model)).get()!;
const aviator = (ctx: Store) => byModel(ctx, 'RB3025-L0205');
const book = (ctx: Store) => byModel(ctx, 'BK-OLDMAN-001');

const customerInfo = {
  name: 'Lena Ocean',
  email: 'lena@example.com',
  phone: '949-555-0123',
  address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
};
const aviatorOrder = (productId: number) => ({
  productId,
  quantity: 1,
  subtotal: 171,
  shipping: 0,
  tax: 13.68,
  total: 184.68,
  shippingMethod: 'standard',
  customerInfo,
  paymentToken: 'cnon:card-nonce-ok',
});

/** A shopper's paid buy-now order of the Aviator; its id. */
async function orderedAviator(ctx: Store): Promise<{ shopper: TestClient; orderId: number }> {
  const { client } = await player(ctx, 'lena');
  const response = await client.post('/api/orders', { json: aviatorOrder(aviator(ctx).id) });
  expect(response.status).toBe(201);
  return { shopper: client, orderId: ((await response.json()) as { id: number }).id };
}

describe('DELETE /api/products/{id}: archive or delete', () => {
  test('a product with an order is archived: it leaves the shop, the order keeps its line and name', async () => {
    const ctx = await seededStore();
    const { orderId } = await orderedAviator(ctx);
    const admin = await signedInAdmin(ctx);
    const id = aviator(ctx).id;

    const response = await admin.request('DELETE', `/api/products/${id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ archived: true, orders: 1, games: 0 });
    expect(aviator(ctx).archivedAt).toBe(ctx.clock.now());

    const visitor = ctx.client();
    const listed = (await (await visitor.get('/api/products')).json()) as { id: number }[];
    expect(listed.map((p) => p.id)).not.toContain(id);
    expect(((await (await visitor.get('/api/products?q=aviator')).json()) as unknown[]).length).toBe(0);
    expect(await (await visitor.get('/sitemap.xml')).text()).not.toContain(`/product/${id}<`);
    const page = await visitor.get(`/product/${id}`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(headingOf(html)).toBe('No Longer Sold');
    expect(textOf(mainOf(html))).toContain('Ray-Ban Aviator Classic is no longer sold in the shop.');

    const line = ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).get()!;
    expect(line).toMatchObject({ productId: id, productLabel: 'Ray-Ban Aviator Classic' });
  });

  test('an archived product cannot be bought, put in a cart or played', async () => {
    const ctx = await seededStore();
    await orderedAviator(ctx);
    await settledBookGame(ctx);
    const admin = await signedInAdmin(ctx);
    for (const id of [aviator(ctx).id, book(ctx).id]) expect((await admin.request('DELETE', `/api/products/${id}`)).status).toBe(200);

    const shopper = await player(ctx, 'carol');
    const buy = await shopper.client.post('/api/orders', { json: aviatorOrder(aviator(ctx).id) });
    expect(buy.status).toBe(409);
    expect(await buy.json()).toMatchObject({ message: 'This product is no longer sold.' });
    const cart = await shopper.client.post('/api/cart', { json: { productId: aviator(ctx).id, quantity: 1 } });
    expect(cart.status).toBe(409);
    const play = await shopper.client.post('/api/plays', { json: { productId: book(ctx).id, influencerIds: fivePicks(ctx.db, 0) } });
    expect(play.status).toBe(409);
    expect(await play.json()).toMatchObject({ message: 'This product is no longer sold.' });
    expect((await shopper.client.get(`/social-play/${book(ctx).id}`)).status).toBe(404);
  });

  test('a product with a settled game is archived: the game, its plays and its record stay', async () => {
    const ctx = await seededStore();
    const gameId = await settledBookGame(ctx);
    const admin = await signedInAdmin(ctx);
    const id = book(ctx).id;
    const playsBefore = ctx.db.select().from(plays).where(eq(plays.gameId, gameId)).all();

    const response = await admin.request('DELETE', `/api/products/${id}`);
    expect(await response.json()).toMatchObject({ archived: true, orders: 0, games: 1 });
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()).toBeDefined();
    expect(ctx.db.select().from(plays).where(eq(plays.gameId, gameId)).all()).toEqual(playsBefore);

    const record = await ctx.client().get(`/games/${gameId}`);
    expect(record.status).toBe(200);
    expect(textOf(mainOf(await record.text()))).toContain('The Old Man and the Sea');
  });

  test('a product without orders or games is still deleted', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const id = aviator(ctx).id;
    const response = await admin.request('DELETE', `/api/products/${id}`);
    expect(await response.json()).toEqual({ message: 'Product deleted' });
    expect(ctx.db.select().from(products).where(eq(products.id, id)).get()).toBeUndefined();
  });

  test('POST /api/products/{id}/restore puts it back in the shop; only an admin with the PIN may', async () => {
    const ctx = await seededStore();
    await orderedAviator(ctx);
    const admin = await signedInAdmin(ctx);
    const id = aviator(ctx).id;
    await admin.request('DELETE', `/api/products/${id}`);

    const shopper = signedInUser(ctx, 'mallory');
    expect((await shopper.client.post(`/api/products/${id}/restore`)).status).toBe(403);
    expect((await ctx.client().post(`/api/products/${id}/restore`)).status).toBe(401);
    expect(aviator(ctx).archivedAt).not.toBeNull();

    const restored = await admin.post(`/api/products/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ id, archivedAt: null, name: 'Aviator Classic' });
    expect((await ctx.client().get(`/product/${id}`)).status).toBe(200);
    expect((await admin.post('/api/products/99999/restore')).status).toBe(404);
  });
});

describe('the admin panel: the dialog says what will happen; archived rows restore', () => {
  test('the confirmation names the orders and games and the Archive action; the toast says archived', async () => {
    const ctx = await seededStore();
    await settledBookGame(ctx);
    const admin = await signedInAdmin(ctx);
    const id = book(ctx).id;

    const confirm = await (await admin.get(`/admin/products/${id}/delete`)).text();
    expect(textOf(mainOf(confirm))).toContain('This product has 0 orders and 1 game: it will be archived, not deleted.');
    expect(all(mainOf(confirm), 'button[type="submit"]').map(textOf)).toEqual(['Archive']);

    const { html, toast } = await afterRedirect(admin, await postForm(admin, `/admin/products/${id}/delete`));
    expect(toast?.title).toBe('Product archived');
    const row = all(html, 'li').find((li) => textOf(li).includes('The Old Man and the Sea'))!;
    expect(textOf(row)).toContain('Archived: not in the shop');
    expect(all(row, `form[action="/admin/products/${id}/restore"] button`).map(textOf)).toEqual(['Restore The Old Man and the Sea']);

    const restored = await afterRedirect(admin, await postForm(admin, `/admin/products/${id}/restore`));
    expect(restored.toast?.title).toBe('Product restored');
    expect(book(ctx).archivedAt).toBeNull();
  });
});
