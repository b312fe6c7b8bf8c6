import { describe, expect, test } from 'bun:test';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import type { CompetitionData, CompetitionPlay } from '../../src/shared/views/games.ts';
import type { TestClient } from '../helpers/app.ts';
import { book, enter, gameStore, MINUTE, picks, player, START } from '../helpers/games.ts';
import { islandProps } from '../helpers/html.ts';
import { readEvents } from '../helpers/sse.ts';

/*
 * Issue 25 row 10: the picks of a waiting game are nobody's business until it starts, the game
 * record's rule (GET /api/games/{id}), on every view that shows a game's plays: the competition
 * and plays APIs, the live stream, and the product page's competition tab, for strangers and for
 * the players of the game alike. Once the game is live, every view shows them.
 */

type Picks = (string[] | null)[];

const picksOf = (plays: Pick<CompetitionPlay, 'influencerIds'>[]): Picks => plays.map((play) => play.influencerIds);

async function json<T>(client: TestClient, path: string): Promise<T> {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** What every shared view shows of the game's picks, for this visitor. */
async function shownPicks(viewer: TestClient, productId: number) {
  const competition = await json<CompetitionData>(viewer, `/api/products/${productId}/competition`);
  const plays = await json<CompetitionPlay[]>(viewer, `/api/products/${productId}/plays`);
  const html = await (await viewer.get(`/product/${productId}?tab=competition`)).text();
  const panel = islandProps<{ initial: CompetitionData }>(html, 'CompetitionPanel').initial;
  const events = readEvents(await viewer.get(`/api/events?product=${productId}`));
  try {
    expect((await events.next())?.event).toBe('ready');
    let streamed: CompetitionData | null = null;
    while (!streamed) {
      const message = await events.next();
      if (!message) throw new Error('no competition message on the stream');
      if (message.event === 'competition') streamed = (JSON.parse(message.data) as { competition: CompetitionData }).competition;
    }
    return {
      status: competition.gameStatus,
      competition: picksOf(competition.plays),
      plays: picksOf(plays),
      page: picksOf(panel.plays),
      stream: picksOf(streamed.plays),
      html,
    };
  } finally {
    await events.close();
  }
}

describe('picks of a waiting game', () => {
  test('hidden on the competition and plays APIs, the stream and the product page until the game starts; shown once it is live', async () => {
    const ctx = await gameStore();
    const productId = book(ctx).id;
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const stranger = ctx.client();
    const alicePicks = picks(ctx, 0);
    const bobPicks = picks(ctx, 5);

    await enter(alice, productId, alicePicks);
    ctx.clock.advance(MINUTE);
    // Bob fills the game: it waits for its hour, full, with both entries.
    await enter(bob, productId, bobPicks);

    for (const viewer of [stranger, alice.client, bob.client]) {
      const shown = await shownPicks(viewer, productId);
      expect(shown).toMatchObject({ status: 'waiting', competition: [null, null], plays: [null, null], page: [null, null], stream: [null, null] });
      expect(shown.html).not.toContain(JSON.stringify(alicePicks));
      expect(shown.html).not.toContain(JSON.stringify(bobPicks));
    }

    ctx.clock.set(START + MINUTE);
    await runGameJobs(ctx.deps);
    const live = await shownPicks(stranger, productId);
    expect(live.status).toBe('active');
    for (const view of [live.competition, live.plays, live.page, live.stream]) {
      expect(view.map((ids) => ids?.join(',')).sort()).toEqual([alicePicks.join(','), bobPicks.join(',')].sort());
    }
  });

  test("the player's own picks stay in their own views: My Games shows them while the game waits", async () => {
    const ctx = await gameStore();
    const productId = book(ctx).id;
    const alice = await player(ctx, 'alice');
    await enter(alice, productId, picks(ctx, 0));
    const mine = await json<{ influencerIds: string[]; game: { status: string } }[]>(alice.client, '/api/user/plays');
    expect(mine).toMatchObject([{ influencerIds: picks(ctx, 0), game: { status: 'waiting' } }]);
  });
});
