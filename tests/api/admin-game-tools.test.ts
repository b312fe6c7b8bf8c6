import { describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { games, influencers, notifications, payments, plays, products, users } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { bootstrapAdmin } from '../../src/domain/bootstrap.ts';
import { createPlay, payForPlay, type GameDeps } from '../../src/domain/games/entry.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { completeProfile, giveConsent } from '../helpers/actors.ts';
import { TEST_PIN, testApp, type TestClient } from '../helpers/app.ts';

/*
 * The admin's game tools (issue 10): the Influencers tab (add, edit, retire, restore; bad input
 * changes nothing) and the Games tab (every game by state; Cancel game with a confirmation step
 * voids every hold, releases a live game's unit and tells the players). Admin role and PIN only.
 */

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 21, 18, 10);
const START = Date.UTC(2026, 10, 21, 19, 0);

async function setup() {
  const ctx = await testApp();
  ctx.clock.set(T0);
  seedIfEmpty(ctx.db, ctx.clock);
  await bootstrapAdmin(ctx.db, ctx.clock, ctx.config);
  const admin = ctx.client();
  expect((await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
  expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
  const deps: GameDeps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics };
  return { ...ctx, admin, deps };
}
type Ctx = Awaited<ReturnType<typeof setup>>;

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};
const post = (client: TestClient, path: string, fields: Record<string, string> = {}) => client.request('POST', path, { body: form(fields) });
const byHandle = (ctx: Ctx, handle: string) => ctx.db.select().from(influencers).where(eq(influencers.handle, handle)).get();
const VALID = { name: 'Nora Tide', handle: '@noratide', category: 'Surf', engagementRate: '4.5', 'followers.instagram': '1.2M', 'followers.tiktok': '850K' };

/** Two players in the $2 book's game (full, waiting for 19:00). */
async function fullBookGame(ctx: Ctx) {
  const product = ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
  const ids = ctx.db.select({ id: influencers.id }).from(influencers).orderBy(asc(influencers.id)).all().map((i) => String(i.id));
  const players: number[] = [];
  for (const [i, name] of ['tide_one', 'tide_two'].entries()) {
    const user = ctx.db.insert(users).values({ username: name, passwordHash: 'x', createdAt: ctx.clock.now() }).returning().get();
    completeProfile(ctx, user.id);
    giveConsent(ctx, user.id);
    createPlay(ctx.deps, user.id, { productId: product.id, influencerIds: ids.slice(i * 5, i * 5 + 5) });
    await payForPlay(ctx.deps, user.id, { productId: product.id, amount: 1, type: 'play' });
    players.push(user.id);
  }
  const game = ctx.db.select().from(games).where(eq(games.productId, product.id)).get()!;
  return { gameId: game.id, productId: product.id, players };
}

describe('the Influencers tab', () => {
  test('add, edit, retire and restore; a retired influencer cannot be picked and its history stays', async () => {
    const ctx = await setup();
    const tab = await (await ctx.admin.get('/admin?tab=influencers')).text();
    expect(tab).toContain('Add Influencer');
    expect(tab).toContain('@marisolsunset');

    const added = await post(ctx.admin, '/admin/influencers/new', VALID);
    expect(added.status).toBe(303);
    const nora = byHandle(ctx, '@noratide')!;
    expect(nora).toMatchObject({ name: 'Nora Tide', engagementRate: 4.5, platforms: { instagram: '1.2M', tiktok: '850K' }, retiredAt: null });
    expect((await (await ctx.client().get('/api/influencers')).json()).map((i: { handle: string }) => i.handle)).toContain('@noratide');

    expect((await post(ctx.admin, `/admin/influencers/${nora.id}`, { ...VALID, name: 'Nora Swell', 'followers.tiktok': '', 'followers.youtube': '2B' })).status).toBe(303);
    expect(byHandle(ctx, '@noratide')).toMatchObject({ name: 'Nora Swell', platforms: { instagram: '1.2M', youtube: '2B' } });

    expect((await post(ctx.admin, `/admin/influencers/${nora.id}/retire`)).status).toBe(303);
    expect(byHandle(ctx, '@noratide')!.retiredAt).toBe(ctx.clock.now());
    expect((await (await ctx.client().get('/api/influencers')).json()).map((i: { handle: string }) => i.handle)).not.toContain('@noratide');
    const user = ctx.db.insert(users).values({ username: 'picker', passwordHash: 'x', createdAt: ctx.clock.now() }).returning().get();
    completeProfile(ctx, user.id);
    giveConsent(ctx, user.id);
    const others = ctx.db.select({ id: influencers.id }).from(influencers).limit(4).all().map((i) => String(i.id));
    const book = ctx.db.select().from(products).where(eq(products.playEnabled, true)).get()!;
    expect(() => createPlay(ctx.deps, user.id, { productId: book.id, influencerIds: [...others, String(nora.id)] })).toThrow('One of the chosen influencers does not exist.');

    expect((await post(ctx.admin, `/admin/influencers/${nora.id}/restore`)).status).toBe(303);
    expect(byHandle(ctx, '@noratide')!.retiredAt).toBeNull();
    expect(createPlay(ctx.deps, user.id, { productId: book.id, influencerIds: [...others, String(nora.id)] }).status).toBe('pending');
  });

  test('bad input: the form again with the reason, 4xx, nothing stored', async () => {
    const ctx = await setup();
    const count = () => ctx.db.select().from(influencers).all().length;
    const before = count();
    const cases: [Record<string, string>, string][] = [
      [{ ...VALID, name: 'N' }, 'Name must be 2 to 60 characters.'],
      [{ ...VALID, handle: '@no way' }, 'Handle must be @ followed by'],
      [{ ...VALID, engagementRate: '0' }, 'Engagement rate must be a number from 0.1 to 20'],
      [{ ...VALID, engagementRate: '1e2' }, 'Engagement rate must be a number from 0.1 to 20'],
      [{ ...VALID, 'followers.instagram': 'lots' }, 'Followers must be a number with an optional K, M or B'],
      [{ name: 'Nora Tide', handle: '@noratide', engagementRate: '3' }, 'Give the followers of at least one platform.'],
      [{ ...VALID, handle: '@MarisolSunset' }, 'Another influencer already has this handle.'],
    ];
    for (const [fields, message] of cases) {
      const response = await post(ctx.admin, '/admin/influencers/new', fields);
      expect([400, 409]).toContain(response.status);
      expect(await response.text()).toContain(message);
    }
    expect(count()).toBe(before);
    const marisol = byHandle(ctx, '@marisolsunset')!;
    const refused = await post(ctx.admin, `/admin/influencers/${marisol.id}`, { ...VALID, handle: '@kaisurfsdaily' });
    expect(refused.status).toBe(409);
    expect(byHandle(ctx, '@marisolsunset')).toEqual(marisol);
    expect((await ctx.admin.get('/admin/influencers/99999')).status).toBe(303);
  });

  test('an avatar is an image checked by content', async () => {
    const ctx = await setup();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
    const ok = form(VALID);
    ok.set('avatar', new File([png], 'face.png', { type: 'image/png' }));
    expect((await ctx.admin.request('POST', '/admin/influencers/new', { body: ok })).status).toBe(303);
    expect(byHandle(ctx, '@noratide')!.avatar).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const bad = form({ ...VALID, handle: '@other' });
    bad.set('avatar', new File(['<script>'], 'face.png', { type: 'image/png' }));
    const refused = await ctx.admin.request('POST', '/admin/influencers/new', { body: bad });
    expect(refused.status).toBe(400);
    expect(byHandle(ctx, '@other')).toBeUndefined();
  });

  test('shoppers and admins without the PIN are kept out', async () => {
    const ctx = await setup();
    const shopper = ctx.client();
    await shopper.post('/api/register', { json: { username: 'shopper1', password: 'secret-pass' } });
    const before = ctx.db.select().from(influencers).all().length;
    for (const client of [shopper, ctx.client()]) {
      expect((await post(client, '/admin/influencers/new', VALID)).status).not.toBe(200);
      expect((await post(client, '/admin/games/1/cancel')).status).not.toBe(200);
    }
    expect(ctx.db.select().from(influencers).all().length).toBe(before);
  });
});

describe('the Games tab', () => {
  test('lists games by state with entries and holds, and links each to its audit page', async () => {
    const ctx = await setup();
    const { gameId } = await fullBookGame(ctx);
    const tab = await (await ctx.admin.get('/admin?tab=games')).text();
    expect(tab).toContain(`href="/games/${gameId}"`);
    expect(tab).toContain('2/2 entries');
    expect(tab).toContain('Holds: 2 authorized');
    expect(tab).toContain(`href="/admin/games/${gameId}/cancel"`);
  });

  test('Cancel game on a waiting game: a confirmation first, then every hold voided, the players told, the product deletable', async () => {
    const ctx = await setup();
    const { gameId, productId, players } = await fullBookGame(ctx);
    const confirm = await (await ctx.admin.get(`/admin/games/${gameId}/cancel`)).text();
    expect(confirm).toContain(`Cancel game #${gameId}?`);
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('waiting');

    expect((await post(ctx.admin, `/admin/games/${gameId}/cancel`)).status).toBe(303);
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()).toMatchObject({ status: 'canceled', cancelReason: 'Canceled by the store.' });
    expect(ctx.db.select().from(payments).all().map((p) => p.status)).toEqual(['voided', 'voided']);
    expect(ctx.gateway.payments().every((p) => p.status === 'CANCELED')).toBe(true);
    for (const userId of players) {
      const note = ctx.db.select().from(notifications).where(eq(notifications.userId, userId)).all().find((n) => n.title === 'Game canceled');
      expect(note?.message).toBe('The store canceled the game for The Old Man and the Sea. Your $1 hold was released; nothing was charged.');
    }
    // A second cancel changes nothing; the product is no longer blocked.
    expect((await post(ctx.admin, `/admin/games/${gameId}/cancel`)).status).toBe(303);
    expect(ctx.db.select().from(notifications).all().filter((n) => n.title === 'Game canceled')).toHaveLength(2);
    expect((await ctx.admin.request('POST', `/admin/products/${productId}/delete`)).status).toBe(303);
    expect(ctx.db.select().from(products).where(eq(products.id, productId)).get()).toBeUndefined();
  });

  test('Cancel game on a live game also puts its reserved unit back in stock', async () => {
    const ctx = await setup();
    const { gameId, productId } = await fullBookGame(ctx);
    const stock = () => ctx.db.select().from(products).where(eq(products.id, productId)).get()!.quantity;
    const before = stock();
    ctx.clock.set(START + 5 * MINUTE);
    await runGameJobs(ctx.deps);
    expect(stock()).toBe(before - 1);
    expect((await post(ctx.admin, `/admin/games/${gameId}/cancel`)).status).toBe(303);
    expect(stock()).toBe(before);
    expect(ctx.db.select().from(plays).all().every((p) => p.status === 'void')).toBe(true);
    expect(ctx.db.select().from(payments).all().map((p) => p.status)).toEqual(['voided', 'voided']);
    // The hour's end settles nothing and captures nothing.
    ctx.clock.set(START + 2 * 60 * MINUTE);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([]);
    expect(ctx.gateway.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(0);
  });
});
