import { registerDom, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, mock, test } from 'bun:test';
import { createElement, useEffect, useState } from 'react';
import type { Root } from 'react-dom/client';
import type { IslandComponent } from '../../src/islands/lib/hydrate.ts';
import { formatCompactScore } from '../../src/shared/format.ts';
import { until } from '../helpers/until.ts';

/*
 * The CompetitionPanel island of the product page's Social Competition tab (spec sections 4
 * and 9): server-rendered, hydrated under happy-dom by the real island runtime, then polled
 * with a mocked fetch and fast intervals.
 */

type Panel = typeof import('../../src/islands/CompetitionPanel.tsx');
type Data = import('../../src/shared/views/games.ts').CompetitionData;
type Props = import('../../src/islands/CompetitionPanel.tsx').CompetitionPanelProps;

const HOUR = 60 * 60 * 1000;
const errors: unknown[] = [];
const realFetch = globalThis.fetch;
const originalError = console.error;
let panel: Panel;
/** Unmounts every root (and so every timer) while the window still exists. */
const unmounts: (() => void)[] = [];
const roots: Root[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function play(id: number, userId: number, score: number | null) {
  return { id, userId, username: `fan_${userId}`, influencerIds: ['1', '2', '3', '4', '5'], score, createdAt: 1_700_000_000_000 + id };
}

const waiting: Data = {
  gameId: 7,
  gameStatus: 'waiting',
  startTime: null,
  endTime: null,
  // Missing: the panel falls back to 10.
  requiredParticipants: null,
  participants: 7,
  winnerPlayId: null,
  plays: [1, 2, 3, 4, 5, 6, 7].map((n) => play(n, 100 + n, 0)),
  metrics: [],
};

function active(now: number, scores: number[] = [2_500_000, 1234, 12.34, 1]): Data {
  return {
    gameId: 8,
    gameStatus: 'active',
    startTime: now - 20 * 60_000,
    endTime: now + 40 * 60_000,
    requiredParticipants: 4,
    participants: scores.length,
    winnerPlayId: null,
    plays: scores.map((score, i) => play(20 + i, 40 + i, score)),
    metrics: [{ influencerId: '1', totalScore: 10 }],
  };
}

function completed(now: number): Data {
  return {
    ...active(now, [900, 450]),
    gameId: 9,
    gameStatus: 'completed',
    startTime: now - 2 * HOUR,
    endTime: now - HOUR,
    winnerPlayId: 20,
  };
}

function islandElement(index: number): HTMLElement {
  return document.querySelectorAll<HTMLElement>('[data-island="CompetitionPanel"]')[index]!;
}

function rows(scope: ParentNode) {
  return [...scope.querySelectorAll<HTMLElement>('li[data-play-id]')];
}

function widthOf(row: HTMLElement): number {
  return parseFloat((row.querySelector('[data-bar]') as HTMLElement).style.width);
}

beforeAll(async () => {
  registerDom({ url: 'http://localhost/product/3?tab=competition', width: 390, height: 844 });
  console.error = (...args: unknown[]) => {
    errors.push(args);
    originalError(...args);
  };
  panel = await import('../../src/islands/CompetitionPanel.tsx');
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  console.error = originalError;
  for (const unmount of unmounts) unmount();
  for (const root of roots) root.unmount();
  await sleep(20);
  await unregisterDom();
});

async function render(props: Props): Promise<{ container: HTMLElement; root: Root }> {
  const { createRoot } = await import('react-dom/client');
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  roots.push(root);
  root.render(createElement(panel.default, props));
  await until(() => container.querySelector('[data-game-status]') !== null, 'the first render');
  return { container, root };
}

function stop(root: Root, container: HTMLElement) {
  root.unmount();
  roots.splice(roots.indexOf(root), 1);
  container.remove();
}

describe('CompetitionPanel island', () => {
  const serverNow = Date.now();

  test('hydrates waiting, live and completed panels over their server HTML without a mismatch', async () => {
    const { renderToString } = await import('react-dom/server');
    const { startIslands } = await import('../../src/islands/lib/hydrate.ts');
    const { serializeProps } = await import('../../src/components/Island.tsx');
    // Long intervals: nothing polls during this test.
    const slow = { active: 60_000, idle: 60_000 };
    const all: Props[] = [
      { productId: 3, initial: waiting, now: serverNow, pollIntervals: slow },
      { productId: 4, initial: active(serverNow), now: serverNow, pollIntervals: slow },
      { productId: 5, initial: completed(serverNow), now: serverNow, pollIntervals: slow },
    ];
    // The live panel re-reads its data once on mount (its page may come from the page cache).
    const fetchMock = mock(async (url: string) =>
      jsonResponse(url === '/api/products/4/competition' ? active(serverNow) : { message: 'unexpected' }, url === '/api/products/4/competition' ? 200 : 500),
    );
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const html = all.map((props, i) => renderToString(createElement(panel.default, props), { identifierPrefix: `i${i}-` }));
    // The server's countdown comes from its own `now`: 40 minutes left.
    expect(html[1]).toContain('00:40:00');
    document.body.innerHTML = all
      .map(
        (props, i) =>
          `<div data-island="CompetitionPanel" data-mode="load" data-src="/assets/CompetitionPanel.js" data-prefix="i${i}-" style="display:contents">` +
          `<script type="application/json">${serializeProps(props)}</script>` +
          `<div data-island-root="" style="display:contents">${html[i]}</div></div>`,
      )
      .join('');
    const serverNodes = [0, 1, 2].map((i) => islandElement(i).querySelector('[data-game-status]'));

    function Harness(props: Props) {
      const [alive, setAlive] = useState(true);
      useEffect(() => {
        unmounts.push(() => setAlive(false));
      }, []);
      return alive ? createElement(panel.default, props) : null;
    }
    startIslands(async () => Harness as unknown as IslandComponent);
    await until(() => [0, 1, 2].every((i) => islandElement(i).dataset.hydrated === 'true'), 'the islands to hydrate');
    await sleep(30);
    expect(errors).toEqual([]);
    // Hydration kept the server's nodes (a mismatch would have re-created them).
    expect([0, 1, 2].map((i) => islandElement(i).querySelector('[data-game-status]'))).toEqual(serverNodes);
    expect(fetchMock.mock.calls.map((call) => (call as unknown as [string])[0])).toEqual(['/api/products/4/competition']);
  });

  test("waiting: 'Waiting for N more participants. (x/y entries)' with y defaulting to 10, and Play Now", () => {
    const root = islandElement(0);
    expect(root.textContent).toContain('Waiting for 3 more participants. (7/10 entries)');
    expect(root.querySelector('[role="progressbar"]')!.getAttribute('aria-valuemax')).toBe('10');
    expect(root.querySelector('a[href="/play/3"]')!.textContent).toBe('Play Now');
    expect(rows(root)).toHaveLength(7);
    expect(root.textContent).not.toContain('LIVE');
  });

  test("live: the LIVE badge, 'Live competition in progress! {countdown} remaining', ranked leaderboard, Play Now", () => {
    const root = islandElement(1);
    expect(root.textContent).toContain('LIVE');
    expect(root.textContent).toMatch(/Live competition in progress! 00:(40:00|39:5\d) remaining/);
    const list = rows(root);
    expect(list.map((row) => row.textContent)).toEqual(['1fan_402.5M', '2fan_411.2K', '3fan_4212.3', '4fan_431.0']);
    expect(root.querySelector('a[href="/play/4"]')).not.toBeNull();
  });

  test('live: bars are relative to the leader and never below 5%', () => {
    const [leader, second, third, last] = rows(islandElement(1));
    expect(widthOf(leader!)).toBe(100);
    // 1234 of 2.5M is 0.05%, 12.34 and 1 even less: all shown at 5%.
    expect(widthOf(second!)).toBe(5);
    expect(widthOf(third!)).toBe(5);
    expect(widthOf(last!)).toBe(5);
    expect(panel.barPercent(1_250_000, 2_500_000)).toBe(50);
    expect(panel.barPercent(0, 0)).toBe(5);
    expect(panel.barPercent(null, 100)).toBe(5);
  });

  test("completed: 'Competition completed!', the winner highlighted, no Play Now", () => {
    const root = islandElement(2);
    expect(root.textContent).toContain('Competition completed!');
    expect(root.textContent).toContain('Winner: fan_40 with 900.0 points.');
    const [first, second] = rows(root);
    expect(first!.dataset.winner).toBe('true');
    expect(first!.className).toContain('bg-amber-50');
    expect(first!.textContent).toContain('Winner');
    expect(second!.dataset.winner).toBeUndefined();
    expect(widthOf(second!)).toBe(50);
    expect(root.querySelector('a[href^="/play/"]')).toBeNull();
    expect(root.textContent).not.toContain('LIVE');
  });

  test('compact scores: K and M with 1 decimal; the poll intervals', () => {
    const { pollIntervalFor } = panel;
    expect(formatCompactScore(1234)).toBe('1.2K');
    expect(formatCompactScore(2_500_000)).toBe('2.5M');
    expect(formatCompactScore(12.34)).toBe('12.3');
    expect(formatCompactScore(0)).toBe('0.0');
    expect(formatCompactScore(999.9)).toBe('999.9');
    expect(formatCompactScore(999.96)).toBe('1.0K');
    expect(formatCompactScore(999_960)).toBe('1.0M');
    expect(formatCompactScore(null)).toBe('0.0');
    expect(panel.POLL_ACTIVE_MS).toBe(10_000);
    expect(panel.POLL_IDLE_MS).toBe(30_000);
    expect(pollIntervalFor('active')).toBe(10_000);
    expect(pollIntervalFor('waiting')).toBe(30_000);
    expect(pollIntervalFor('completed')).toBeNull();
  });

  test('polls GET /api/products/{id}/competition: slow while waiting, fast while live, never once completed', async () => {
    const now = Date.now();
    const answers: Response[] = [];
    const calls: { url: string; at: number }[] = [];
    const fetchMock = mock(async (url: string, init?: RequestInit) => {
      calls.push({ url, at: Date.now() });
      expect(init?.method).toBe('GET');
      return answers.shift() ?? jsonResponse({ message: 'nothing queued' }, 500);
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const { container, root } = await render({ productId: 11, initial: waiting, now, pollIntervals: { active: 20, idle: 150 } });

    // Waiting: the slow interval.
    answers.push(jsonResponse(active(now, [50, 10])));
    await sleep(100);
    expect(calls).toHaveLength(0);
    await until(() => container.textContent!.includes('Live competition in progress!'), 'the live data', 1000);
    expect(calls[0]!.url).toBe('/api/products/11/competition');
    expect(rows(container).map((row) => row.textContent)).toEqual(['1fan_4050.0', '2fan_4110.0']);

    // Live: the fast interval. A failed read keeps the last data.
    await until(() => calls.length >= 3, 'fast polls', 500);
    expect(container.textContent).toContain('Live competition in progress!');
    expect(rows(container)).toHaveLength(2);

    // Hidden page: nothing is fetched.
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    await sleep(30);
    const whileHidden = calls.length;
    await sleep(100);
    expect(calls.length).toBe(whileHidden);
    delete (document as unknown as { hidden?: boolean }).hidden;
    expect(document.hidden).toBe(false);

    // Completed: the panel says so and polling stops for good.
    answers.push(jsonResponse(completed(now)));
    await until(() => container.textContent!.includes('Competition completed!'), 'the completed data', 1000);
    const afterCompleted = calls.length;
    await sleep(150);
    expect(calls.length).toBe(afterCompleted);
    expect(container.querySelector('a[href^="/play/"]')).toBeNull();
    stop(root, container);
  });

  test("a signed-in player's own line says 'You'; the record link and the seed hash show; a full game points to the next one", async () => {
    const live = active(Date.now());
    const data = { ...live, seedHash: 'ab'.repeat(32), nextGame: { id: 99, participants: 1, requiredParticipants: 4 } };
    const { container, root } = await render({ productId: 21, initial: data, now: Date.now(), viewerId: 41, pollIntervals: { active: 60_000, idle: 60_000 } });
    const mine = [...container.querySelectorAll<HTMLElement>('[data-mine="true"]')];
    expect(mine.map((row) => row.dataset.playId)).toEqual([String(live.plays.find((p) => p.userId === 41)!.id)]);
    expect(mine[0]!.textContent).toContain('You');
    // One display name: the viewer's own line says 'You' and never their username; the others show theirs.
    expect(mine[0]!.textContent).not.toContain('fan_41');
    expect(container.textContent).toContain('fan_40');
    expect(container.textContent).not.toMatch(/Player \d/);
    expect(container.querySelectorAll('[data-mine]')).toHaveLength(1);
    expect(container.querySelector<HTMLAnchorElement>(`a[href="/games/${live.gameId}"]`)!.textContent).toBe('Game details and how to check the result');
    expect(container.textContent).toContain(`Seed hash ${'ab'.repeat(8)}…`);
    expect(container.textContent).toContain('This game is full. Join now and you enter the next game (1/4 entries).');
    stop(root, container);
    const visitor = await render({ productId: 22, initial: data, now: Date.now(), pollIntervals: { active: 60_000, idle: 60_000 } });
    expect(visitor.container.querySelectorAll('[data-mine]')).toHaveLength(0);
    expect(visitor.container.textContent).not.toContain('You');
    stop(visitor.root, visitor.container);
  });

  test("a game of a sized product says its size ('Size M game') and follows the next read to another size's game; a one-size game names none", async () => {
    const answers: Response[] = [jsonResponse({ ...waiting, gameId: 12, size: 'L' }), jsonResponse(waiting)];
    globalThis.fetch = mock(async () => answers.shift() ?? jsonResponse(waiting)) as unknown as typeof fetch;
    const { container, root } = await render({ productId: 31, initial: { ...waiting, size: 'M' }, now: Date.now(), pollIntervals: { active: 20, idle: 20 } });
    const label = () => container.querySelector<HTMLElement>('[data-game-size]');
    expect(label()!.textContent).toBe('Size M game');
    // The label comes before the state it qualifies.
    expect(container.textContent).toStartWith('Size M gameWaiting for 3 more participants.');
    await until(() => label()?.textContent === 'Size L game', 'the L game', 1000);
    await until(() => label() === null, 'a game without a size', 1000);
    expect(container.textContent).toContain('Waiting for 3 more participants. (7/10 entries)');
    stop(root, container);
  });

  test('unmounting clears the poll timer', async () => {
    const fetchMock = mock(async () => jsonResponse(waiting));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const { container, root } = await render({ productId: 12, initial: waiting, now: Date.now(), pollIntervals: { active: 15, idle: 15 } });
    await until(() => fetchMock.mock.calls.length >= 1, 'a poll');
    stop(root, container);
    const afterUnmount = fetchMock.mock.calls.length;
    await sleep(60);
    expect(fetchMock.mock.calls.length).toBe(afterUnmount);
  });

  test("the live countdown runs to one hour after startTime, then reads 'Competition ended'", async () => {
    // The mount-time refresh answers with something that is not competition data: it is ignored.
    const fetchMock = mock(async () => jsonResponse({ unexpected: true }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const now = Date.now();
    // One hour after the start is 0.7 s away (the first tick, a second in, passes it); endTime says otherwise and is not used.
    const data: Data = { ...active(now), startTime: now - HOUR + 700, endTime: now + HOUR };
    const { container, root } = await render({ productId: 13, initial: data, now, pollIntervals: { active: 60_000, idle: 60_000 } });
    const timer = () => container.querySelector('[role="timer"]')!.textContent;
    expect(timer()).toBe('00:00:01');
    await until(() => timer() === 'Competition ended', 'the end of the countdown', 4000);
    expect(container.textContent).not.toContain('remaining');
    expect(container.textContent).toContain('LIVE');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    stop(root, container);
  }, 10_000);

  test('no console errors from the whole run', () => {
    expect(errors).toEqual([]);
  });
});
