import { describe, expect, test } from 'bun:test';
import { customer } from '../helpers/checkout.ts';
import { buyOne, entryRows, flagFree, joinFree } from '../helpers/free-entries.ts';
import { book, gameRow, gameStore, type GameStore, picks, player, postPlay } from '../helpers/games.ts';
import { sizedProduct } from '../helpers/variants.ts';

/*
 * Buy one, play free by size (issue 38): an order gives one free entry per unit bought whatever
 * its size (two sizes of one tee are two lines, each unit counts), and a free entry spent on a
 * product sold in several sizes plays for the size the player picked.
 */

const flaggedTee = (ctx: GameStore) =>
  sizedProduct(ctx.db, { M: 3, L: 3 }, { brand: 'Free Tee', priceCents: 200, playEnabled: true, buyOnePlayFreeEnabled: true });

type CartLine = { id: number; productId: number; quantity: number; price: number; type: string; size: string };

describe('free entries by size', () => {
  test('one M and two L of one flagged tee in one order: three free entries', async () => {
    const ctx = await gameStore();
    const { productId, variants } = flaggedTee(ctx);
    const alice = await player(ctx, 'alice');
    expect((await alice.client.post('/api/cart', { json: { productId, variantId: variants.M!, quantity: 1 } })).status).toBe(201);
    expect((await alice.client.post('/api/cart', { json: { productId, variantId: variants.L!, quantity: 2 } })).status).toBe(201);
    const cart = (await (await alice.client.get('/api/cart')).json()) as CartLine[];
    expect(cart.map((line) => [line.size, line.quantity])).toEqual([
      ['M', 1],
      ['L', 2],
    ]);
    const body = (summary: { shipping: number }) => ({
      paymentMethod: 'square',
      items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
      shipping: { method: 'standard', cost: summary.shipping },
      summary,
      customer,
    });
    const probe = await alice.client.post('/api/checkout', { json: body({ subtotal: 0, shipping: 0, tax: 0, total: 0 } as never) });
    expect(probe.status).toBe(409);
    const { summary } = (await probe.json()) as { summary: { shipping: number } };
    const paid = await alice.client.post('/api/checkout', { json: body(summary) });
    expect(paid.status).toBe(201);
    const rows = entryRows(ctx.db, alice.id);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.productId))).toEqual(new Set([productId]));
  });

  test('a free entry on a multi-size product joins the game of the size picked; no size, no play', async () => {
    const ctx = await gameStore();
    const { productId, variants } = flaggedTee(ctx);
    const alice = await player(ctx, 'alice');
    // A free entry from an earlier purchase of another flagged product.
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    expect(entryRows(ctx.db, alice.id).map((row) => row.status)).toEqual(['available']);

    const unsized = await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    expect(unsized.status).toBe(400);
    expect((await joinFree(alice.client, productId)).status).toBe(404);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('available');

    const picked = await postPlay(alice, { productId, variantId: variants.L!, influencerIds: picks(ctx, 0) });
    expect(picked.status).toBe(201);
    const joined = await joinFree(alice.client, productId, { variantId: variants.L! });
    expect(joined.status).toBe(201);
    const { gameId } = (await joined.json()) as { gameId: number };
    expect(gameRow(ctx, gameId).variantId).toBe(variants.L!);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('used');
  });
});
