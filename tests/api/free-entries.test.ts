import { describe, expect, test } from 'bun:test';
import { grantFreeEntries } from '../../src/domain/games/free-entries.ts';
import { freeEntries, orders } from '../../src/db/schema.ts';
import { eq } from 'drizzle-orm';
import { adminWithPin, buyNowBody, quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { book, competition, DAY, gameStore, giftBook, holdsOf, notesOf, pick, picks, player, playRows, productBy, vansTee } from '../helpers/games.ts';
import { buyInCart, buyOne, entryRows, flagFree, joinFree, myEntries } from '../helpers/free-entries.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

import { joinTeam, startTeam, teamOrders, teamProduct } from '../helpers/teams.ts';
/*
 * Buy one, play free (issue 29, item 3): a paid order of a flagged product gives one free game
 * entry per unit for 30 days; a join uses one instead of the $1 hold; a canceled or refunded
 * order withdraws the unused ones.
 */

const THIRTY_DAYS = 30 * DAY;

describe('free entries are granted when an order is paid', () => {
  test('a paid cart order: one entry per unit of each flagged product, valid 30 days, granted once; unflagged lines give none', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const tee = vansTee(ctx);
    flagFree(ctx.db, tee.id);
    const orderId = await buyInCart(alice.client, tee.id, 2);
    await buyOne(alice.client, giftBook(ctx)); // not flagged
    const rows = entryRows(ctx.db, alice.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ orderId, productId: tee.id, status: 'available', expiresAt: ctx.clock.now() + THIRTY_DAYS });
    expect(notesOf(ctx, alice.id, 'order_status').map((n) => n.title)).toContain('Free game entries');
    // Whoever confirms the order again (a retry, the reconciler) grants nothing more.
    const order = ctx.db.select().from(orders).where(eq(orders.id, orderId)).get()!;
    expect(grantFreeEntries(ctx.db, ctx.clock, order)).toBe(0);
    expect(entryRows(ctx.db, alice.id)).toHaveLength(2);
    const mine = await myEntries(alice.client);
    expect(mine.available).toBe(2);
    // The account's data download carries them too.
    const exported = await (await alice.client.get('/api/user/export')).json();
    expect(exported.freeEntries).toHaveLength(2);
    expect(mine.entries.map((e) => [e.status, e.orderId])).toEqual([
      ['available', orderId],
      ['available', orderId],
    ]);
  });

  test('the receipt names the free entries', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    const mail = await deliverOutbox(ctx);
    const receipt = mail.find((m) => m.subject.includes('is confirmed'));
    expect(receipt?.text).toContain('1 free game entry');
  });

  test('a declined order gives none; cash on delivery gives them once delivered', async () => {
    const ctx = await gameStore();
    const broke = await player(ctx, 'broke', 'cnon:card-nonce-declined');
    flagFree(ctx.db, book(ctx).id);
    const declined = await broke.client.post('/api/orders', { json: buyNowBody(book(ctx).id, book(ctx).priceCents) });
    expect(declined.status).toBe(402);
    expect(entryRows(ctx.db)).toHaveLength(0);
    const alice = await player(ctx, 'alice');
    const orderId = await buyInCart(alice.client, book(ctx).id, 1, 'cod');
    expect(entryRows(ctx.db)).toHaveLength(0);
    const admin = await adminWithPin(ctx);
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'completed' } })).status).toBe(200);
    expect(entryRows(ctx.db, alice.id)).toEqual([expect.objectContaining({ orderId, status: 'available' })]);
    const mail = await deliverOutbox(ctx);
    expect(mail.find((m) => m.subject === `Order #${orderId} was delivered`)?.text).toContain('1 free game entry');
    expect(mail.find((m) => m.subject.includes('is confirmed') && m.text.includes(`#${orderId}`))?.text).not.toContain('free game entr');
  });

  test('a guest order gives none: a guest cannot sign in to play', async () => {
    const ctx = await gameStore();
    const product = book(ctx);
    flagFree(ctx.db, product.id);
    const body = { ...buyNowBody(product.id, product.priceCents), paymentToken: 'cnon:card-nonce-ok' };
    expect((await ctx.client().post('/api/orders', { json: body })).status).toBe(201);
    expect(ctx.db.select().from(orders).all()).toHaveLength(1);
    expect(entryRows(ctx.db)).toHaveLength(0);
  });

  test('GET /api/user/free-entries needs a signed-in shopper', async () => {
    const ctx = await gameStore();
    const response = await ctx.client().get('/api/user/free-entries');
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBeTruthy();
  });
});

describe('joining a game with a free entry', () => {
  test('no $1 hold: the play counts at once, the oldest-expiring entry is used, the player is told', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    ctx.clock.advance(DAY);
    await buyOne(alice.client, book(ctx));
    const cardPaymentsBefore = ctx.gateway.payments().length;
    const productId = giftBook(ctx).id;
    const play = await pick(alice, productId, picks(ctx, 0));
    const joined = await joinFree(alice.client, productId);
    expect(joined.status).toBe(201);
    expect(await joined.json()).toMatchObject({ id: play.id, status: 'entered', gameId: play.gameId, amount: 0 });
    expect(ctx.gateway.payments()).toHaveLength(cardPaymentsBefore);
    expect(holdsOf(ctx)).toHaveLength(0);
    expect((await competition(ctx, productId)).participants).toBe(1);
    const [first, second] = entryRows(ctx.db, alice.id);
    expect(first).toMatchObject({ status: 'used', playId: play.id });
    expect(second).toMatchObject({ status: 'available', playId: null });
    expect(notesOf(ctx, alice.id, 'payment_success').at(-1)?.title).toBe('Free entry used');
    const mine = await myEntries(alice.client);
    expect(mine.entries.find((e) => e.status === 'used')?.gameId).toBe(play.gameId);
  });

  test('the same join sent again under its Idempotency-Key (a lost answer): the first answer again, the entry used once', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    await buyOne(alice.client, book(ctx));
    const productId = giftBook(ctx).id;
    const play = await pick(alice, productId, picks(ctx, 0));
    const send = () =>
      alice.client.post('/api/payments', {
        json: { productId, type: 'play', useFreeEntry: true },
        headers: { 'Idempotency-Key': 'b7d4c1f2-0e1a-4c55-9d3e-2f6a8b9c0d11' },
      });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ id: play.id, status: 'entered' });
    expect(entryRows(ctx.db, alice.id).map((e) => e.status)).toEqual(['used', 'available']);
  });

  test('none left: 409 with a message, nothing changed; an expired entry is not used', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await pick(alice, productId, picks(ctx, 0));
    const refused = await joinFree(alice.client, productId);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('You have no free game entry left. Join for $1 instead.');
    expect(playRows(ctx, alice.id)[0]!.status).toBe('pending');
    flagFree(ctx.db, giftBook(ctx).id);
    await buyOne(alice.client, giftBook(ctx));
    // Thirty days later (the row's date moved back: the session would have ended too).
    ctx.db.update(freeEntries).set({ expiresAt: ctx.clock.now() }).run();
    expect((await joinFree(alice.client, productId)).status).toBe(409);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('available');
    expect((await myEntries(alice.client)).entries[0]!.status).toBe('expired');
    expect(holdsOf(ctx)).toHaveLength(0);
  });

  test('a bad body: 400 and nothing changed', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await pick(alice, productId, picks(ctx, 0));
    for (const body of [
      { productId, type: 'play', useFreeEntry: 'yes' },
      { productId, type: 'play', useFreeEntry: false },
      { productId, useFreeEntry: true },
    ]) {
      const response = await alice.client.post('/api/payments', { json: body });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBeTruthy();
    }
    expect(playRows(ctx, alice.id)[0]!.status).toBe('pending');
  });

  test('not signed in: 401', async () => {
    const ctx = await gameStore();
    expect((await joinFree(ctx.client(), book(ctx).id)).status).toBe(401);
  });

  test('20 joins at once with one free entry: exactly one uses it, the others are refused and nothing else moves', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    const playable = ['The Old Man and the Sea', 'Gift from the Sea'].map((brand) => productBy(ctx, brand).id).concat(vansTee(ctx).id);
    for (const [i, productId] of playable.entries()) await pick(alice, productId, picks(ctx, i));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => joinFree(alice.client, playable[i % playable.length]!)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409 || s === 404)).toBe(true);
    expect(playRows(ctx, alice.id).filter((p) => p.status === 'entered')).toHaveLength(1);
    expect(entryRows(ctx.db, alice.id)).toEqual([expect.objectContaining({ status: 'used' })]);
    expect(holdsOf(ctx)).toHaveLength(0);
  });

  test('20 joins at once, some free and some paying $1, one free entry: one free entry used, the $1 joins paid as asked', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    const playable = [book(ctx).id, giftBook(ctx).id, vansTee(ctx).id, productBy(ctx, 'Billabong').id];
    for (const [i, productId] of playable.entries()) await pick(alice, productId, picks(ctx, i));
    // Products 0 and 1: free entry asked; 2 and 3: $1 asked. Five requests each.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const productId = playable[i % 4]!;
        return i % 4 < 2 ? joinFree(alice.client, productId) : alice.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } });
      }),
    );
    const ok = answers.filter((r) => r.status === 201).length;
    expect(ok).toBe(3);
    const plays = playRows(ctx, alice.id);
    expect(plays.filter((p) => p.status === 'entered')).toHaveLength(3);
    expect(entryRows(ctx.db, alice.id).filter((e) => e.status === 'used')).toHaveLength(1);
    // The two $1 plays each hold $1 once; the free one holds nothing.
    expect(holdsOf(ctx).filter((h) => h.status === 'authorized')).toHaveLength(2);
  });
});

describe('responsible play counts free entries as paid ones', () => {
  test('the daily limit counts a free entry, and refuses one when reached (the entry stays available)', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    await buyOne(alice.client, book(ctx));
    expect((await alice.client.request('PUT', '/api/user/play-limits', { json: { dailyEntryLimit: 1 } })).status).toBe(200);
    await pick(alice, giftBook(ctx).id, picks(ctx, 0));
    expect((await joinFree(alice.client, giftBook(ctx).id)).status).toBe(201);
    const settings = await (await alice.client.get('/api/user/play-settings')).json();
    expect(settings.entriesToday).toBe(1);
    // The limit is reached: neither another free entry nor a $1 entry.
    await pick(alice, vansTee(ctx).id, picks(ctx, 1)).catch(() => undefined);
    const refused = await joinFree(alice.client, vansTee(ctx).id);
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('DAILY_LIMIT_REACHED');
    expect(entryRows(ctx.db, alice.id).filter((e) => e.status === 'available')).toHaveLength(1);
  });

  test('a self-excluded player cannot use a free entry', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    flagFree(ctx.db, book(ctx).id);
    await buyOne(alice.client, book(ctx));
    await pick(alice, giftBook(ctx).id, picks(ctx, 0));
    expect((await alice.client.post('/api/user/self-exclusion', { json: { period: '30d' } })).status).toBe(200);
    const refused = await joinFree(alice.client, giftBook(ctx).id);
    expect(refused.status).toBe(403);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('available');
  });
});

describe('a canceled or refunded order withdraws its unused free entries', () => {
  test('an admin cancels a paid order: the unused entry is withdrawn, the used one stays used', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const tee = vansTee(ctx);
    flagFree(ctx.db, tee.id);
    const orderId = await buyInCart(alice.client, tee.id, 2);
    await pick(alice, giftBook(ctx).id, picks(ctx, 0));
    expect((await joinFree(alice.client, giftBook(ctx).id)).status).toBe(201);
    const admin = await adminWithPin(ctx);
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } })).status).toBe(200);
    expect(entryRows(ctx.db, alice.id).map((e) => e.status)).toEqual(['used', 'withdrawn']);
    const mine = await myEntries(alice.client);
    expect(mine.available).toBe(0);
    expect(mine.entries.map((e) => e.status).sort()).toEqual(['used', 'withdrawn']);
    // The play it entered is still in its game.
    expect(playRows(ctx, alice.id)[0]!.status).toBe('entered');
  });

  test('a delivered order refunded in full withdraws; a part refund keeps them', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const tee = vansTee(ctx);
    flagFree(ctx.db, tee.id);
    const orderId = await buyInCart(alice.client, tee.id, 1);
    const admin = await adminWithPin(ctx);
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'completed' } })).status).toBe(200);
    expect((await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 100, reason: 'Scuffed' } })).status).toBe(200);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('available');
    expect((await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { reason: 'Returned' } })).status).toBe(200);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('withdrawn');
  });
});

describe('Buy one, play free through the other ways to buy', () => {
  test('a team buy of a flagged product gives each member their free entry with their own order; a product not flagged gives none', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx);
    flagFree(ctx.db, productId);
    const alice = quickShopper(ctx, 'alice');
    const started = await startTeam(alice.client, productId);
    expect(started.status).toBe(201);
    const { code } = (await started.json()) as { code: string };
    const bob = quickShopper(ctx, 'bob');
    expect((await joinTeam(bob.client, code)).status).toBe(201);
    for (const member of [alice, bob]) {
      const mine = await myEntries(member.client);
      expect(mine.available).toBe(1);
      const order = teamOrders(ctx).find((o) => o.order.userId === member.id)!.order;
      expect(mine.entries.map((entry) => entry.orderId)).toEqual([order.id]);
    }

    // The same product with the flag off: a team buy gives nothing.
    const plain = teamProduct(ctx);
    flagFree(ctx.db, plain, false);
    const carol = quickShopper(ctx, 'carol');
    const second = (await (await startTeam(carol.client, plain)).json()) as { code: string };
    expect((await joinTeam(quickShopper(ctx, 'dave').client, second.code)).status).toBe(201);
    expect((await myEntries(carol.client)).available).toBe(0);
  });
});
