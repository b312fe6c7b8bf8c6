import { describe, expect, test } from 'bun:test';
import { announceLiveScores, lastLiveEventId, liveEventsAfter } from '../../src/domain/operations/live-events.ts';
import { clockRoute, filledBookGame, gameStore, START } from '../helpers/games.ts';

/*
 * The minute's score tick: a live game's scores move every minute without a row changing, so the
 * tick names its product and the scoreboard (whose leader lines showed the first minute's leader
 * for the whole hour when only the product moved).
 */

describe('the live score tick', () => {
  test("moves each live game's product and the scoreboard once; with no live game, nothing", async () => {
    const ctx = await gameStore();
    const { alice, productId } = await filledBookGame(ctx);
    const topicsAfter = (id: number) => liveEventsAfter(ctx.db, id).map((row) => row.topic);

    let last = lastLiveEventId(ctx.db);
    expect(announceLiveScores(ctx.db)).toBe(0);
    expect(topicsAfter(last)).toEqual([]);

    await clockRoute(alice.client, { now: START });
    last = lastLiveEventId(ctx.db);
    announceLiveScores(ctx.db);
    expect(topicsAfter(last)).toEqual([`product:${productId}`, 'scoreboard']);
  });
});
