import { describe, expect, test } from 'bun:test';
import { DEMO_CHARITY } from '../../src/config.ts';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { fivePicks } from '../helpers/games.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { COMPLETE_PROFILE, signedInUser } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';
import { allIslandProps, count, first, links, mainOf } from '../helpers/html.ts';

/*
 * /scoreboard through app.request() (spec sections 2, 4 and 9): the three tabs, a game one
 * player short ('Needs 1 more!', PLAY NOW and the Next Game Starting card), the live game
 * after the top of the hour, the winner after settlement, and the winner's prize actions.
 * Games are made the way shoppers make them: register, save a card, POST /api/plays, POST
 * /api/payments.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Ten past six (UTC): a game that fills now starts at 19:00 and ends at 20:00. */
const T0 = Date.UTC(2026, 10, 21, 18, 10);
const START = Date.UTC(2026, 10, 21, 19, 0);

type Ctx = Awaited<ReturnType<typeof store>>;

async function store() {
  const ctx = await testApp({}, { seededAt: T0 });
  return ctx;
}

const runJobs = (ctx: Ctx) => runGameJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics });

/** $2 and playEnabled: two players fill its game. */
function book(ctx: Ctx) {
  return ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
}

const picks = (ctx: Ctx, from: number) => fivePicks(ctx.db, from);

/** A registered shopper with a card on file. */
async function shopper(ctx: Ctx, username: string): Promise<{ client: TestClient; id: number; username: string }> {
  const client = ctx.client();
  const registered = await client.post('/api/register', { json: { username, password: 'secret-pass' } });
  expect(registered.status).toBe(201);
  expect((await client.post('/api/user/play-consent', { json: { adult: true, acceptRules: true } })).status).toBe(200);
  const saved = await client.request('PATCH', '/api/user/profile', {
    json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } },
  });
  expect(saved.status).toBe(200);
  return { client, id: (await registered.json()).id, username };
}

/** Picks 5 influencers and pays the $1 entry. */
async function join(client: TestClient, productId: number, influencerIds: string[]) {
  const play = await client.post('/api/plays', { json: { productId, influencerIds } });
  expect(play.status).toBe(201);
  const paid = await client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } });
  expect(paid.status).toBe(201);
}

async function page(client: TestClient, path: string): Promise<string> {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/html');
  return response.text();
}

/** The HTML of the section the tab renders: everything in main after the tabs' nav, as parsed. */
function tabSection(html: string): string {
  const main = mainOf(html);
  let section = '';
  for (let node: Node | null = first(main, 'nav')!; node && node !== main; node = node.parentNode) {
    for (let next = node.nextSibling; next; next = next.nextSibling) section += (next as Element).outerHTML ?? next.textContent ?? '';
  }
  return section;
}

describe('/scoreboard', () => {
  test('public: h1, the three tabs as links, Active Games by default with its empty text; the alerts banner for players only', async () => {
    const ctx = await store();
    const html = await page(ctx.client(), '/scoreboard');
    expect(html).toContain('<title>Scoreboard | ');
    expect(html).toContain('<h1 class="m-0 text-2xl font-extrabold">Scoreboard</h1>');
    expect(links(html, 'a[aria-current="page"]')).toContainEqual({ href: '/scoreboard', text: 'Active Games' });
    expect(links(html)).toContainEqual({ href: '/scoreboard?tab=my-games', text: 'My Games' });
    expect(links(html)).toContainEqual({ href: '/scoreboard?tab=winners', text: 'Winners' });
    // A visitor has no games to be alerted about (issue 27); a signed-in player is offered alerts.
    expect(html).not.toContain('data-island="GameAlerts"');
    const player = signedInUser(ctx, 'alerts1');
    const playerHtml = await page(player.client, '/scoreboard');
    expect(playerHtml).toContain('data-island="GameAlerts"');
    expect(playerHtml).toContain('Enable game alerts');
    // The visitor's cached page stays without it.
    expect(await page(ctx.client(), '/scoreboard')).not.toContain('data-island="GameAlerts"');
    expect(tabSection(html)).toContain('No games are running right now.');
    expect(html).not.toContain('Next Game Starting');

    const active = await page(ctx.client(), '/scoreboard?tab=active');
    expect(count(active, 'a[href="/scoreboard"][aria-current="page"]')).toBeGreaterThan(0);
    // An unknown tab is the default one.
    expect(count(await page(ctx.client(), '/scoreboard?tab=nope'), 'a[href="/scoreboard"][aria-current="page"]')).toBeGreaterThan(0);
  });

  test('My Games signed out asks to log in and comes back; Winners is empty before any game', async () => {
    const ctx = await store();
    const mine = await page(ctx.client(), '/scoreboard?tab=my-games');
    expect(count(mine, 'a[href="/scoreboard?tab=my-games"][aria-current="page"]')).toBeGreaterThan(0);
    expect(mine).toContain('Log in to see your games.');
    const login = links(mine).find((link) => link.href.startsWith('/auth?next=') && link.text === 'Log in')!.href;
    expect(new URL(login, 'http://x').searchParams.get('next')).toBe('/scoreboard?tab=my-games');
    expect(mine).toContain('<meta name="robots" content="noindex"/>');

    const winners = await page(ctx.client(), '/scoreboard?tab=winners');
    expect(count(winners, 'a[href="/scoreboard?tab=winners"][aria-current="page"]')).toBeGreaterThan(0);
    expect(tabSection(winners)).toContain('No winners yet.');

    const signedIn = await shopper(ctx, 'newbie');
    expect(tabSection(await page(signedIn.client, '/scoreboard?tab=my-games'))).toContain('You have not joined any games yet.');
  });

  test('a game, from one player short to live to settled, on every tab', async () => {
    const ctx = await store();
    const productId = book(ctx).id;
    const alice = await shopper(ctx, 'alice');
    const bob = await shopper(ctx, 'bob');

    // One of two players: 'Needs 1 more!', PLAY NOW and the Next Game Starting card.
    await join(alice.client, productId, picks(ctx, 0));
    let html = await page(ctx.client(), '/scoreboard');
    let section = tabSection(html);
    expect(section).toContain('Next Game Starting');
    expect(section).toContain('Needs 1 more!');
    expect(section).toContain(`href="/play/${productId}"`);
    expect(section).toMatch(/PLAY NOW<span class="sr-only">/);
    expect(section).toContain(`href="/product/${productId}?tab=competition"`);
    expect(section).toContain('1/2 players');
    // The countdown runs to the next top of the hour; its first render is the server's time.
    const [next] = allIslandProps(html, 'GameCountdown');
    expect(next).toEqual({ target: START, now: T0, doneText: 'Game starting now!', className: expect.any(String) });
    expect(section).toContain('00:50:00');

    // Alice's My Games: waiting for players, no score or rank yet.
    let mine = tabSection(await page(alice.client, '/scoreboard?tab=my-games'));
    expect(mine).toContain('Waiting for players');
    expect(mine).toContain('The Old Man and the Sea');

    // Bob fills it; at 19:00 it starts: Live, 'Ends in' a countdown to 20:00, and the leader.
    await join(bob.client, productId, picks(ctx, 5));
    ctx.clock.set(START + 15 * MINUTE);
    await runJobs(ctx);
    html = await page(ctx.client(), '/scoreboard');
    section = tabSection(html);
    expect(section).not.toContain('Next Game Starting');
    expect(section).not.toContain('Needs 1 more!');
    expect(section).toMatch(/<span aria-hidden="true" class="[^"]*"><\/span>Live<\/span>/);
    expect(section).toContain('Ends in ');
    expect(section).toContain('00:45:00');
    expect(allIslandProps(html, 'GameCountdown')).toEqual([
      { target: START + HOUR, now: START + 15 * MINUTE, doneText: 'Ending now', className: expect.any(String) },
    ]);
    const [live] = (await (await ctx.client().get('/api/games/active')).json()) as { leaderUsername: string; highestScore: number }[];
    expect(['alice', 'bob']).toContain(live!.leaderUsername);
    expect(section).toContain(`Leader: <strong class="text-ink">${live!.leaderUsername}</strong>`);
    expect(section).toMatch(/ with \d+(\.\d)?K? pts/);
    mine = tabSection(await page(bob.client, '/scoreboard?tab=my-games'));
    expect(mine).toContain('>Live</span>');
    expect(mine).toMatch(/#[12] of 2/);

    // 20:00: settled. Winners shows the winner; the winner's My Games offers the prize.
    ctx.clock.set(START + HOUR);
    await runJobs(ctx);
    const [winner] = (await (await ctx.client().get('/api/games/winners')).json()) as { username: string; score: number; gameId: number }[];
    expect(winner).toBeDefined();
    const winners = tabSection(await page(ctx.client(), '/scoreboard?tab=winners'));
    expect(winners).toContain(winner!.username);
    expect(winners).toContain('The Old Man and the Sea');
    expect(winners).toContain('Nov 21, 2026');
    expect(winners).toContain('<img');
    const active = tabSection(await page(ctx.client(), '/scoreboard'));
    expect(active).toContain('No games are running right now.');
    // The game that just ended does not vanish from Active Games: it is there with its winner for the hour.
    expect(active).toContain('Just finished');
    expect(active).toContain(`<strong>${winner!.username}</strong> won The Old Man and the Sea with`);
    expect(active).toContain('href="/scoreboard?tab=winners"');
    ctx.clock.set(START + 2 * HOUR + MINUTE);
    expect(tabSection(await page(ctx.client(), '/scoreboard'))).not.toContain('Just finished');

    const [won, lost] = winner!.username === 'alice' ? [alice, bob] : [bob, alice];
    const winnerHtml = await page(won.client, '/scoreboard?tab=my-games');
    const winnerTab = tabSection(winnerHtml);
    expect(winnerTab).toContain('>Won</span>');
    expect(winnerTab).toContain('#1 of 2');
    expect(winnerTab).toContain('href="/cart"');
    expect(winnerTab).toContain('Claim Prize');
    expect(winnerTab).toContain('Donate');
    expect(allIslandProps(winnerHtml, 'PrizeActions')).toEqual([
      // The charity a donated prize goes to is named in the confirmation (issue 29).
      { gameId: winner!.gameId, productName: 'The Old Man and the Sea', inCart: true, charity: DEMO_CHARITY.name },
    ]);

    const loserTab = tabSection(await page(lost.client, '/scoreboard?tab=my-games'));
    expect(loserTab).toContain('>Lost</span>');
    expect(loserTab).toContain('#2 of 2');
    expect(loserTab).not.toContain('Claim Prize');

    // Donating (the island's call) replaces the prize actions with a thank-you.
    const donated = await won.client.post(`/api/games/${winner!.gameId}/donate`, { json: {} });
    expect(donated.status).toBe(200);
    const after = tabSection(await page(won.client, '/scoreboard?tab=my-games'));
    expect(after).not.toContain('Claim Prize');
    expect(after).toContain(`Donated to ${DEMO_CHARITY.name}.`);
  });

  test('the product page competition tab renders the CompetitionPanel island with the live data and the server time', async () => {
    const ctx = await store();
    const productId = book(ctx).id;
    const alice = await shopper(ctx, 'carol');
    await join(alice.client, productId, picks(ctx, 0));
    const html = await page(ctx.client(), `/product/${productId}?tab=competition`);
    expect(html).toContain('>Social Competition</a>');
    const [props] = allIslandProps(html, 'CompetitionPanel');
    expect(props).toMatchObject({ productId, now: T0, initial: { gameStatus: 'waiting', participants: 1, requiredParticipants: 2 } });
    expect(html).toContain('Waiting for 1 more participants. (1/2 entries)');
    // Players are named by username, as on the scoreboard and the game record, never 'Player {id}'.
    expect(html).toContain('carol');
    expect(html).not.toContain(`Player ${alice.id}`);
    expect(html).toContain(`href="/play/${productId}"`);
  });
});
