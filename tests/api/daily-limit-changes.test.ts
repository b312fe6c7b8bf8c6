import { describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { influencers, products } from '../../src/db/schema.ts';
import { giveConsent, quickShopper } from '../helpers/actors.ts';
import { testApp } from '../helpers/app.ts';
import { text, textOf } from '../helpers/html.ts';

/*
 * Issue 27, item 4 (finding 17): a lower daily entry limit applies at once; a higher one starts
 * 24 hours after it is asked for, so a limit is never lifted in the heat of a session. The API
 * answers the change waiting; the profile's Play tab and its flash say when it starts.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function store() {
  const ctx = await testApp({}, { seededAt: Date.UTC(2026, 10, 21, 18, 10) });
  const player = quickShopper(ctx, 'sally');
  giveConsent(ctx, player.id);
  const picks = ctx.db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .limit(5)
    .all()
    .map((i) => String(i.id));
  const playable = ctx.db.select().from(products).where(eq(products.playEnabled, true)).all();
  const setLimit = async (dailyEntryLimit: number) => {
    const response = await player.client.request('PUT', '/api/user/play-limits', { json: { dailyEntryLimit } });
    expect(response.status).toBe(200);
    return response.json();
  };
  const settings = async () => (await player.client.get('/api/user/play-settings')).json();
  /** Picks and pays on the n-th playable product: the status of the pick, then of the $1 hold. */
  const enter = async (n: number) => {
    const productId = playable[n]!.id;
    const picked = await player.client.post('/api/plays', { json: { productId, influencerIds: picks } });
    if (picked.status !== 201) return [picked.status, (await picked.json()).code];
    return [(await player.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } })).status];
  };
  return { ...ctx, player, setLimit, settings, enter };
}

describe('changing the daily entry limit', () => {
  test('lowering applies at once: the next entry over the new limit is refused', async () => {
    const s = await store();
    expect(await s.setLimit(2)).toMatchObject({ dailyEntryLimit: 2, pendingDailyEntryLimit: null, pendingLimitFrom: null });
    expect(await s.enter(0)).toEqual([201]);
    expect(await s.enter(1)).toEqual([201]);
    expect(await s.enter(2)).toEqual([403, 'DAILY_LIMIT_REACHED']);
  });

  test('raising waits 24 hours: the old limit holds until then, and the API says what is waiting and from when', async () => {
    const s = await store();
    await s.setLimit(1);
    const asked = s.clock.now();
    expect(await s.setLimit(3)).toMatchObject({ dailyEntryLimit: 1, pendingDailyEntryLimit: 3, pendingLimitFrom: asked + DAY });
    expect(await s.enter(0)).toEqual([201]);
    expect(await s.enter(1)).toEqual([403, 'DAILY_LIMIT_REACHED']);
    s.clock.set(asked + DAY - MINUTE);
    expect(await s.settings()).toMatchObject({ dailyEntryLimit: 1, pendingDailyEntryLimit: 3 });
    s.clock.set(asked + DAY);
    expect(await s.settings()).toMatchObject({ dailyEntryLimit: 3, pendingDailyEntryLimit: null, pendingLimitFrom: null });
    expect(await s.enter(1)).toEqual([201]);
    expect(await s.enter(2)).toEqual([201]);
  });

  test('lowering while a raise waits drops the raise; raising again starts the 24 hours over', async () => {
    const s = await store();
    await s.setLimit(2);
    await s.setLimit(8);
    expect(await s.setLimit(1)).toMatchObject({ dailyEntryLimit: 1, pendingDailyEntryLimit: null });
    await s.setLimit(5);
    s.clock.advance(DAY - MINUTE);
    const again = await s.setLimit(6);
    expect(again).toMatchObject({ dailyEntryLimit: 1, pendingDailyEntryLimit: 6, pendingLimitFrom: s.clock.now() + DAY });
    s.clock.advance(2 * MINUTE);
    expect((await s.settings()).dailyEntryLimit).toBe(1);
  });

  test('the Play tab form: a raise comes back with when it starts, shown on the tab until then', async () => {
    const s = await store();
    await s.player.client.post('/profile/play-limit', { form: { dailyEntryLimit: '2' } });
    const saved = await s.player.client.post('/profile/play-limit', { form: { dailyEntryLimit: '6' } });
    expect(saved.status).toBe(303);
    const tab = await (await s.player.client.get('/profile?tab=play')).text();
    const expected = 'Your new limit of 6 starts at November 22, 2026 at 10:10 AM.';
    expect(text(tab, '[data-pending-limit]')).toBe(expected);
    expect(textOf(tab)).toContain(`Limit saved ${expected}`);
    expect(textOf(tab)).toContain('Your limit is 2 (at most 10).');
  });
});
