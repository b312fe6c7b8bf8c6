import { describe, expect, test } from 'bun:test';
import { desc, eq } from 'drizzle-orm';
import { games, orders, plays } from '../../src/db/schema.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import {
  CHARGE,
  cartOfSizes,
  LIST,
  expectLedgerHolds,
  MINUTE,
  movedBySize,
  orderStatus,
  sizesOfOrder,
  teeAndShopper,
  unsureSizedEntry,
} from '../helpers/sized-square.ts';
import { ledgerBySize } from '../helpers/variants.ts';

/*
 * The reconciler (payments/reconcile.ts) on sized buys other than a buy now (that one:
 * sizes-reconciler.test.ts): a cart of M and S whose charge answer was lost, and a $1 hold for a
 * game in M. Settled with no person: each size's ledger moves by the units its lines bought.
 */

const open = squareStoresOfFile();
const lastOrderId = (s: SquareStore) => s.db.select({ id: orders.id }).from(orders).orderBy(desc(orders.id)).get()!.id;

describe.concurrent('the reconciler on a cart of two sizes', () => {
  test('Square took it, the answer was lost: the next pass pays the order and sells one M and one S', async () => {
    const s = await open();
    const { tee, client, before } = await teeAndShopper(s);
    const body = await cartOfSizes(client, tee, ['M', 'S']);
    // The request's own look-up by key fails too: only the reconciler can learn that Square took it.
    s.fake.failNext({ status: 500, afterProcessing: true }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    expect((await client.post('/api/checkout', { json: body })).status).toBe(502);
    const orderId = lastOrderId(s);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, held: 1 }, S: { available: -1, held: 1 } });
    s.clock.advance(MINUTE);
    await s.tick();
    expect(orderStatus(s, orderId)).toBe('processing');
    expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 }, S: { available: -1, sold: 1 } });
    expect(sizesOfOrder(s, orderId)).toEqual(['M', 'S']);
    expectLedgerHolds(s, tee.id);
    s.clock.advance(30 * MINUTE);
    await s.tick();
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 }, S: { available: -1, sold: 1 } });
  });

  test('Square never took it: M and S stay held while unsure, then both come back; L never moves', async () => {
    const s = await open();
    const { tee, client, before } = await teeAndShopper(s);
    const body = await cartOfSizes(client, tee, ['M', 'S']);
    s.fake.failNext({ status: 500 }, CHARGE);
    expect((await client.post('/api/checkout', { json: body })).status).toBe(502);
    const orderId = lastOrderId(s);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, held: 1 }, S: { available: -1, held: 1 } });
    await s.tick();
    expect(orderStatus(s, orderId)).toBe('pending');
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(orderStatus(s, orderId)).toBe('failed');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
    expectLedgerHolds(s, tee.id);
    // The lines wait in the cart again and sell once, each in its size.
    const again = await cartOfSizes(client, tee, []);
    expect(again.items).toHaveLength(2);
    expect((await client.post('/api/checkout', { json: again })).status).toBe(201);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 }, S: { available: -1, sold: 1 } });
  });
});

const play = (s: SquareStore) => s.db.select({ status: plays.status, gameId: plays.gameId }).from(plays).get()!;

describe.concurrent('the reconciler on a $1 hold for a game in M', () => {
  async function unsureEntry(taken: boolean) {
    const s = await open();
    const { tee, before, gameId } = await unsureSizedEntry(s, taken);
    expect(play(s).status).toBe('authorizing');
    return { s, tee, before, gameId };
  }

  test('Square took the hold: the play is entered in the M game, no unit moves until the game starts', async () => {
    const { s, tee, before, gameId } = await unsureEntry(true);
    s.clock.advance(MINUTE);
    await s.tick();
    expect(play(s)).toEqual({ status: 'entered', gameId });
    expect(s.db.select({ variantId: games.variantId }).from(games).where(eq(games.id, gameId)).get()!.variantId).toBe(tee.variant.M!);
    expect(s.fake.payments().filter((p) => p.status === 'APPROVED')).toHaveLength(1);
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
  });

  test('Square never took it: the play is void after the wait, nothing held of any size', async () => {
    const { s, tee, before } = await unsureEntry(false);
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(play(s).status).toBe('void');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
  });
});
