import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, products } from '../../src/db/schema.ts';
import { closeDueAuctions } from '../../src/domain/auctions/close.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { END, endedBookGame, gameStore, HOUR, aviator } from '../helpers/games.ts';
import { all, first, mainOf, textOf } from '../helpers/html.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * The scoreboard's Winners list auction winners beside game winners (issue 28, item 6), newest
 * first: 'won at auction for $X', the winner masked as the bid history masks them (issue 37 item 9). GET /api/games/winners
 * keeps its game fields and tells the two apart by `kind`.
 */

describe('auction winners on the scoreboard', () => {
  test('a paid auction is listed with its price beside the settled game, newest first', async () => {
    const ctx = await gameStore();
    const frames = aviator(ctx);
    ctx.db.update(products).set({ bidEnabled: true }).where(eq(products.id, frames.id)).run();
    setShelf(ctx.db, frames.id, 2);
    const admin = await adminWithPin(ctx);
    const endsAt = new Date(END + HOUR).toISOString();
    expect((await admin.request('PUT', `/api/admin/products/${frames.id}/auction`, { json: { startingBid: 150, endsAt } })).status).toBe(200);
    const game = await endedBookGame(ctx);
    expect((await game.alice.client.post(`/api/products/${frames.id}/bids`, { json: { maxAmount: 200 } })).status).toBe(201);
    // Nothing won yet at auction: the list is the games'.
    await runGameJobs(ctx.deps);
    const before = await (await ctx.client().get('/api/games/winners')).json();
    expect(before.map((w: { kind: string }) => w.kind)).toEqual(['game']);
    const scoreboardBefore = await (await ctx.client().get('/scoreboard?tab=winners')).text();
    expect(textOf(mainOf(scoreboardBefore))).not.toContain('won at auction');

    ctx.clock.set(END + HOUR);
    await closeDueAuctions(ctx.deps);
    expect(ctx.db.select().from(auctions).where(eq(auctions.productId, frames.id)).get()!.status).toBe('ended');

    const list = await (await ctx.client().get('/api/games/winners')).json();
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({
      kind: 'auction',
      auctionId: expect.any(Number),
      productId: frames.id,
      username: 'a***e',
      productName: 'Ray-Ban Aviator Classic',
      productType: 'sunglasses',
      imageUrl: expect.any(String),
      price: 150,
      date: END + HOUR,
    });
    // The game's entry keeps every field it had.
    expect(list[1]).toMatchObject({
      kind: 'game',
      gameId: game.gameId,
      productId: game.productId,
      username: expect.any(String),
      score: expect.any(Number),
      date: END,
    });

    // The page lists both, the auction first.
    const page = await (await ctx.client().get('/scoreboard?tab=winners')).text();
    const items = all(mainOf(page), 'section[aria-label="Winners"] li');
    expect(items).toHaveLength(2);
    // The same name as the product page's bid history gives the same bidder; never the username itself.
    const history = await (await ctx.client().get(`/api/products/${frames.id}/auction`)).json();
    expect(history.bids[0].bidder).toBe('a***e');
    expect(textOf(items[0]!)).toMatch(/^a\*\*\*e /);
    expect(textOf(items[0]!)).not.toContain('alice');
    expect(textOf(items[0]!)).toContain('Ray-Ban Aviator Classic');
    expect(textOf(items[0]!)).toContain('won at auction for $150.00');
    expect(first(items[0]!, 'a')!.getAttribute('href')).toBe(`/product/${frames.id}`);
    expect(textOf(items[1]!)).toContain('The Old Man and the Sea');
    expect(textOf(items[1]!)).toContain('Game details');
  });
});
