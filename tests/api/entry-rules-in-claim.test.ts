import { describe, expect, test } from 'bun:test';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { payments, playerSettings, plays, products as productsTable } from '../../src/db/schema.ts';
import { book, gameStore, type GameStore, giftBook, MINUTE, picks, pick, player, type Player, postPayment, vansTee } from '../helpers/games.ts';

/*
 * Issue 25 row 9: the rules of entering a game (daily entry limit, self-exclusion, consent) are
 * checked inside the transaction that writes the entry, so a second process cannot pass them
 * at the same time. One process runs JavaScript one request at a time, so the race is staged
 * here: another process's write commits just before this request's transaction begins, after
 * any check made outside it. A check inside the transaction sees that write; one outside does not.
 */

/** `write` (another process's) commits just before the next transaction on `db` begins. */
function beforeNextTransaction(db: Db, write: () => void): void {
  const original = db.transaction;
  db.transaction = ((run, config) => {
    db.transaction = original;
    write();
    return original(run, config);
  }) as Db['transaction'];
}

async function limitOfOne(ctx: GameStore, name: string): Promise<Player> {
  const p = await player(ctx, name);
  expect((await p.client.request('PUT', '/api/user/play-limits', { json: { dailyEntryLimit: 1 } })).status).toBe(200);
  return p;
}

const payFor = (p: Player, productId: number) => postPayment(p, { productId, amount: 1, type: 'play' });
const entriesOf = (ctx: GameStore, userId: number) =>
  ctx.db
    .select()
    .from(plays)
    .where(and(eq(plays.userId, userId), eq(plays.status, 'entered')))
    .all();
const holdsOf = (ctx: GameStore, userId: number) => ctx.db.select().from(payments).where(eq(payments.userId, userId)).all();

describe('the entry rules run inside the claim transaction', () => {
  test('daily limit 1: an entry claimed by another process just before this claim is counted; 403 DAILY_LIMIT_REACHED, no second hold', async () => {
    const ctx = await gameStore();
    const alice = await limitOfOne(ctx, 'alice');
    await pick(alice, book(ctx).id, picks(ctx, 0));
    const other = await pick(alice, giftBook(ctx).id, picks(ctx, 0));
    // The other process claims the gift book's entry: its play is being paid, which counts.
    beforeNextTransaction(ctx.db, () => ctx.db.update(plays).set({ status: 'authorizing' }).where(eq(plays.id, other.id)).run());
    const refused = await payFor(alice, book(ctx).id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'DAILY_LIMIT_REACHED' });
    expect(holdsOf(ctx, alice.id)).toEqual([]);
    expect(ctx.gateway.payments()).toEqual([]);
  });

  test('self-exclusion committed by another process just before the claim: 403 SELF_EXCLUDED, no hold', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    await pick(alice, book(ctx).id, picks(ctx, 0));
    beforeNextTransaction(ctx.db, () =>
      ctx.db
        .update(playerSettings)
        .set({ excludedUntil: ctx.clock.now() + 30 * 24 * 60 * MINUTE, exclusionPeriod: '30d' })
        .where(eq(playerSettings.userId, alice.id))
        .run(),
    );
    const refused = await payFor(alice, book(ctx).id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'SELF_EXCLUDED' });
    expect(entriesOf(ctx, alice.id)).toEqual([]);
    expect(ctx.gateway.payments()).toEqual([]);
  });

  test('a pick too: self-excluded by another process just before it is stored, it is refused and nothing is stored', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    beforeNextTransaction(ctx.db, () =>
      ctx.db
        .update(playerSettings)
        .set({ excludedUntil: ctx.clock.now() + MINUTE, exclusionPeriod: '30d' })
        .where(eq(playerSettings.userId, alice.id))
        .run(),
    );
    const refused = await alice.client.post('/api/plays', { json: { productId: vansTee(ctx).id, influencerIds: picks(ctx, 0) } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'SELF_EXCLUDED' });
    expect(ctx.db.select().from(plays).where(eq(plays.userId, alice.id)).all()).toEqual([]);
  });

  test('daily limit 1, six holds at once on six products while the gateway is slow: the holds still waiting count; one entry, the rest refused', async () => {
    const ctx = await gameStore();
    const alice = await limitOfOne(ctx, 'alice');
    const products = ctx.db
      .select({ id: productsTable.id })
      .from(productsTable)
      .where(eq(productsTable.playEnabled, true))
      .orderBy(desc(productsTable.priceCents))
      .limit(6)
      .all()
      .map((p) => p.id);
    expect(products).toHaveLength(6);
    for (const productId of products) await pick(alice, productId, picks(ctx, 0));
    // The gateway answers only once every request is either answered or waiting for it.
    const authorize = ctx.gateway.authorize.bind(ctx.gateway);
    let waiting = 0;
    let answered = 0;
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const check = () => {
      if (waiting + answered === products.length) open();
    };
    ctx.gateway.authorize = async (request) => {
      waiting++;
      check();
      await opened;
      return authorize(request);
    };
    const statuses = await Promise.all(
      products.map(async (productId) => {
        const response = await payFor(alice, productId);
        if (response.status !== 201) answered++;
        check();
        return response.status;
      }),
    );
    // One entry; the others are refused by the daily limit, or (the sixth, while five card slots
    // are in flight) by the card-attempt limit, which takes its slot before the claim.
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 403 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 403).length).toBeGreaterThanOrEqual(4);
    expect(entriesOf(ctx, alice.id)).toHaveLength(1);
  });
});
