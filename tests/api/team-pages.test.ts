import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import type { ProductTeamsView, TeamView } from '../../src/shared/views/teams.ts';
import { quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { closeWhenFileEnds } from '../helpers/file-end.ts';
import { headingOf, islandProps, metaContent, textOf } from '../helpers/html.ts';
import { readEvents } from '../helpers/sse.ts';
import { joinTeam, startTeam, teamProduct } from '../helpers/teams.ts';

/*
 * The pages of a team buy (issue 29 item 1): the product page's 'Buy with a friend' section with
 * its open teams (live over GET /api/events?product=ID), and /team/{code} with its own preview,
 * its Join and its states.
 */

const keepOpen = closeWhenFileEnds((stream: ReturnType<typeof readEvents>) => stream.close());
const DAY = 24 * 60 * 60 * 1000;

async function withTeam() {
  const ctx = await seededApp();
  const productId = teamProduct(ctx);
  const alice = quickShopper(ctx, 'alice');
  const { code } = (await (await startTeam(alice.client, productId)).json()) as { code: string };
  return { ctx, productId, alice, code };
}

describe('the product page', () => {
  test("a half-price product: 'Buy with a friend for $12.50' and its open teams, masked", async () => {
    const { ctx, productId, code } = await withTeam();
    const bob = quickShopper(ctx, 'bobby');
    const html = await (await bob.client.get(`/product/${productId}`)).text();
    expect(textOf(html)).toContain('Buy with a friend for $12.50');
    const props = islandProps<{ view: ProductTeamsView }>(html, 'TeamBuy');
    expect(props.view.teams).toEqual([{ code, starterName: 'a***e', expiresAt: ctx.clock.now() + DAY }]);
    expect(html).not.toContain('alice');
  });

  test('a visitor sees the same section with no JavaScript: Start is a sign-in link, each open team a link to its page', async () => {
    const { ctx, productId, code } = await withTeam();
    const html = await (await ctx.client().get(`/product/${productId}`)).text();
    expect(textOf(html)).toContain('Buy with a friend for $12.50');
    expect(html).not.toContain('data-island="TeamBuy"');
    expect(html).toContain(`href="/auth?next=${encodeURIComponent(`/product/${productId}`)}"`);
    expect(textOf(html)).toContain('Sign in to start a team');
    expect(html).toContain(`href="/team/${code}"`);
    expect(html).not.toContain('alice');
    // A shopper signing in afterwards gets the island, not the visitor's cached page.
    const bob = quickShopper(ctx, 'bobby');
    expect(await (await bob.client.get(`/product/${productId}`)).text()).toContain('data-island="TeamBuy"');
  });

  test('a product not ticked for half price: no section, no island', async () => {
    const ctx = await seededApp();
    const product = ctx.db.select().from(products).where(eq(products.halfPriceEnabled, false)).get()!;
    const html = await (await ctx.client().get(`/product/${product.id}`)).text();
    expect(textOf(html)).not.toContain('Buy with a friend');
    expect(html).not.toContain('data-island="TeamBuy"');
  });

  test('a new team reaches the page live (event team) with the open teams', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx);
    const response = await ctx.client().get(`/api/events?product=${productId}`);
    const stream = keepOpen(readEvents(response));
    expect((await stream.next())?.event).toBe('ready');
    const alice = quickShopper(ctx, 'alice');
    expect((await startTeam(alice.client, productId)).status).toBe(201);
    let seen: ProductTeamsView | null = null;
    while (!seen) {
      const message = await stream.next(2000);
      if (!message) break;
      const data = message.event === 'team' ? (JSON.parse(message.data) as { teams: ProductTeamsView }) : null;
      if (data?.teams.teams.length === 1) seen = data.teams;
    }
    expect(seen?.teams[0]?.starterName).toBe('a***e');
  });
});

describe('/team/{code}', () => {
  test("its own preview, the product, 'Join a***e's team for $12.50', the time left and Join", async () => {
    const { ctx, code, productId } = await withTeam();
    const response = await ctx.client().get(`/team/${code}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const product = ctx.db.select().from(products).where(eq(products.id, productId)).get()!;
    expect(metaContent(html, 'og:title')).toMatch(/^Join my team: .+ at half price/);
    expect(metaContent(html, 'og:image')).toContain(`/share/product/${productId}-`);
    expect(headingOf(html)).toBe("Join a***e's team for $12.50");
    expect(textOf(html)).toContain('24h 0m left');
    expect(textOf(html)).toContain(product.brand);
    const props = islandProps<{ team: TeamView }>(html, 'TeamJoin');
    expect(props.team).toMatchObject({ code, status: 'open', viewerIsMember: false });
  });

  test('the starter sees their own team and its link', async () => {
    const { code, alice } = await withTeam();
    const html = await (await alice.client.get(`/team/${code}`)).text();
    expect(headingOf(html)).toBe('Your team for $12.50');
    expect(islandProps<{ team: TeamView }>(html, 'TeamJoin').team.viewerIsStarter).toBe(true);
  });

  test('filled and expired teams say so and offer a team of your own', async () => {
    const full = await withTeam();
    expect((await joinTeam(quickShopper(full.ctx, 'bob').client, full.code)).status).toBe(201);
    const fullHtml = await (await full.ctx.client().get(`/team/${full.code}`)).text();
    expect(textOf(fullHtml)).toContain('This team is full');
    expect(textOf(fullHtml)).toContain('Start your own team');

    const late = await withTeam();
    late.ctx.clock.advance(DAY);
    await runTeamJobs({ db: late.ctx.db, clock: late.ctx.clock, gateway: late.ctx.gateway });
    const lateHtml = await (await late.ctx.client().get(`/team/${late.code}`)).text();
    expect(textOf(lateHtml)).toContain('This team has expired');
    expect(lateHtml).not.toContain('data-island="TeamJoin"');
  });

  test('after the join: the joiner is in the list and no longer invited to join; both members see their order (issue 37 item 10)', async () => {
    const { ctx, code, alice } = await withTeam();
    const bob = quickShopper(ctx, 'bobby');
    expect((await joinTeam(bob.client, code)).status).toBe(201);
    const joiner = await (await bob.client.get(`/team/${code}`)).text();
    expect(headingOf(joiner)).toBe("You're in a***e's team for $12.50");
    expect(textOf(joiner)).not.toContain('Join a***e');
    expect(textOf(joiner)).toContain('b***y (you, joined)');
    const bobsTeam = islandProps<{ team: TeamView }>(joiner, 'TeamJoin').team;
    expect(bobsTeam.viewerIsMember).toBe(true);
    expect(bobsTeam.viewerOrderId).toEqual(expect.any(Number));
    const starter = await (await alice.client.get(`/team/${code}`)).text();
    expect(textOf(starter)).toContain('a***e (you, started the team)');
    expect(textOf(starter)).toContain('b***y (joined)');
    const alicesTeam = islandProps<{ team: TeamView }>(starter, 'TeamJoin').team;
    expect(alicesTeam.viewerOrderId).toEqual(expect.any(Number));
    expect(alicesTeam.viewerOrderId).not.toBe(bobsTeam.viewerOrderId);
  });

  test("the product page's own read names the shopper's own team, which is not one to join", async () => {
    const { ctx, code, productId, alice } = await withTeam();
    const own = (await (await alice.client.get(`/api/products/${productId}/teams`)).json()) as ProductTeamsView;
    expect(own.yourTeamCode).toBe(code);
    const other = (await (await quickShopper(ctx, 'bobby').client.get(`/api/products/${productId}/teams`)).json()) as ProductTeamsView;
    expect(other.yourTeamCode).toBeNull();
    expect(other.teams.map((team) => team.code)).toEqual([code]);
    const visitor = (await (await ctx.client().get(`/api/products/${productId}/teams`)).json()) as ProductTeamsView;
    expect(visitor.yourTeamCode).toBeUndefined();
  });

  test('an unknown code: 404 page', async () => {
    const ctx = await seededApp();
    expect((await ctx.client().get('/team/abcdefghjk')).status).toBe(404);
    expect((await ctx.client().get('/team/%3Cscript%3E')).status).toBe(404);
  });
});
