import { describe, expect, test } from 'bun:test';
import { freeEntryDate } from '../../src/shared/free-entries.ts';
import type { PlayGameProps } from '../../src/shared/views/games.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { book, gameStore, giftBook, pick, picks, player, vansTee } from '../helpers/games.ts';
import { buyInCart, buyOne, flagFree, joinFree } from '../helpers/free-entries.ts';
import { count, first, islandProps, text, textOf } from '../helpers/html.ts';

/*
 * Buy one, play free (issue 29) on the pages: the product page's line, the order page, the Play
 * tab, the play page's offer, and the admin's Promotions tab (with its CSV), product form and Games tab.
 */

const page = async (client: { get(path: string): Promise<Response> }, path: string) => {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  return response.text();
};

async function storeWithEntries() {
  const ctx = await gameStore();
  const alice = await player(ctx, 'alice');
  const tee = vansTee(ctx);
  flagFree(ctx.db, tee.id);
  const orderId = await buyInCart(alice.client, tee.id, 2);
  return { ctx, alice, tee, orderId };
}

describe('what shoppers see', () => {
  test("the product page of a flagged product says 'Buy one, play free'; another product does not", async () => {
    const ctx = await gameStore();
    flagFree(ctx.db, book(ctx).id);
    const flagged = await page(ctx.client(), `/product/${book(ctx).id}`);
    expect(text(flagged, '[data-buy-one-play-free]')).toBe('Buy one, play free: each unit you buy gives you a free game entry');
    expect(first(await page(ctx.client(), `/product/${giftBook(ctx).id}`), '[data-buy-one-play-free]')).toBeUndefined();
  });

  test("the order page: '2 free game entries, use by {date}'; then 1 used", async () => {
    const { ctx, alice, orderId } = await storeWithEntries();
    const expires = freeEntryDate(ctx.clock.now() + 30 * 24 * 3_600_000);
    expect(text(await page(alice.client, `/orders/${orderId}`), '[data-free-entry-line]')).toBe(`2 free game entries, use by ${expires}`);
    await pick(alice, book(ctx).id, picks(ctx, 0));
    expect((await joinFree(alice.client, book(ctx).id)).status).toBe(201);
    const after = await page(alice.client, `/orders/${orderId}`);
    expect(text(after, '[data-free-entry-line]')).toBe(`1 free game entry, use by ${expires}`);
    expect(textOf(first(after, '[data-free-entries]')!)).toContain('1 used');
  });

  test("'Find a game to join' leads to /play: the products whose games take entries, where the entry can be used (issue 37 item 11)", async () => {
    const { ctx, alice, orderId } = await storeWithEntries();
    const order = await page(alice.client, `/orders/${orderId}`);
    const link = [...(first(order, '[data-free-entries]')?.querySelectorAll('a') ?? [])].find((a) => a.textContent === 'Find a game to join');
    expect(link?.getAttribute('href')).toBe('/play');
    const games = await page(alice.client, '/play');
    expect(first(games, '[data-no-games]')).toBeUndefined();
    // The book has a game waiting for players: its card leads to its Play Now page.
    expect(games).toContain(`href="/social-play/${book(ctx).id}"`);
    expect(text(await page(alice.client, '/profile?tab=play'), '[data-free-entries] a[href="/play"]')).toBe('Find a game to join');
  });

  test('an order of nothing flagged shows no free entries section', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const orderId = await buyOne(alice.client, giftBook(ctx));
    expect(first(await page(alice.client, `/orders/${orderId}`), '[data-free-entries]')).toBeUndefined();
  });

  test("the profile's Play tab lists the entries; the play page offers one", async () => {
    const { ctx, alice } = await storeWithEntries();
    const tab = await page(alice.client, '/profile?tab=play');
    expect(text(tab, '#free-entries-heading')).toBe('Free game entries');
    expect(textOf(first(tab, '[data-free-entries]')!)).toContain('You have 2 free entries to use.');
    expect(count(tab, '[data-entry="available"]')).toBe(2);
    const props = islandProps<PlayGameProps>(await page(alice.client, `/play/${book(ctx).id}`), 'PlayGame');
    expect(props.freeEntries).toEqual({ count: 2, expiresAt: ctx.clock.now() + 30 * 24 * 3_600_000 });
    // Signed out: no offer in the props at all.
    expect(islandProps<PlayGameProps>(await page(ctx.client(), `/play/${book(ctx).id}`), 'PlayGame').freeEntries).toBeUndefined();
  });
});

describe("the admin's side", () => {
  test('the Promotions tab counts free entries by state, lists them, filters, and exports CSV', async () => {
    const { ctx, alice, orderId } = await storeWithEntries();
    await pick(alice, book(ctx).id, picks(ctx, 0));
    expect((await joinFree(alice.client, book(ctx).id)).status).toBe(201);
    const admin = await adminWithPin(ctx);
    const tab = await page(admin, '/admin?tab=promotions');
    expect(text(tab, '[data-count="available"]')).toBe('Available (1)');
    expect(text(tab, '[data-count="used"]')).toBe('Used (1)');
    expect(count(tab, '[data-entry-id]')).toBe(2);
    const used = await page(admin, '/admin?tab=promotions&free=used');
    expect(count(used, '[data-entry-id]')).toBe(1);
    const csv = await admin.get('/admin/promotions/free-entries.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Entry,Shopper,Product,Order,Granted,Expires,Status,Used,Game,Withdrawn');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((line) => line.includes(`alice,`) && line.includes(`,${orderId},`))).toBe(true);
    // A shopper gets neither the tab nor the export.
    expect((await alice.client.get('/admin/promotions/free-entries.csv')).status).not.toBe(200);
  });

  test('the product form explains the tick box; the Games tab counts a free entry beside the holds', async () => {
    const { ctx, alice } = await storeWithEntries();
    await pick(alice, book(ctx).id, picks(ctx, 0));
    expect((await joinFree(alice.client, book(ctx).id)).status).toBe(201);
    const admin = await adminWithPin(ctx);
    const form = await page(admin, `/admin/book/${book(ctx).id}`);
    expect(textOf(first(form, 'fieldset')!)).toContain('Each unit a shopper pays for gives them one free game entry');
    const games = await page(admin, '/admin?tab=games');
    expect(textOf(first(games, 'main')!)).toContain('Holds: 1 free entry');
  });
});
