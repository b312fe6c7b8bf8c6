import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { gunzipSync } from 'node:zlib';
import { products } from '../../src/db/schema.ts';
import { enter, player, seededStore, signedInUser, type Store } from '../helpers/admin-tools.ts';
import { completeProfile } from '../helpers/actors.ts';
import { fivePicks } from '../helpers/games.ts';
import { count, parseHtml } from '../helpers/html.ts';
import type { TestClient } from '../helpers/app.ts';

/*
 * Signed-in shoppers get the catalogue pages from the page cache, with their own header and
 * tail put in per request (src/http/render.tsx). What must never happen: one user seeing
 * another's header, cart count, notifications or 'You' marker, or their own one change behind.
 */

const bookOf = (ctx: Store) => ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;

interface Seen {
  account: string | null;
  cartCount: number;
  bell: { initial: { title: string }[]; unread: number } | null;
  profileDot: boolean;
  mine: string[];
  viewerId: number | null;
}

async function look(client: TestClient, path: string): Promise<Seen> {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  const doc = parseHtml(await response.text());
  const bell = doc.querySelector('[data-island="NotificationBell"] > script')?.textContent;
  const panel = doc.querySelector('[data-island="CompetitionPanel"] > script')?.textContent;
  return {
    account: doc.querySelector('[data-menu-button="account"]')?.getAttribute('aria-label') ?? null,
    cartCount: Number(/Cart, (\d+) item/.exec(doc.querySelector('header a[href="/cart"]')?.getAttribute('aria-label') ?? '')?.[1]),
    bell: bell ? JSON.parse(bell) : null,
    profileDot: doc.querySelector('[aria-label="Profile incomplete"]') !== null,
    mine: [...doc.querySelectorAll('[data-mine="true"]')].map((li) => li.getAttribute('data-play-id') ?? ''),
    viewerId: panel ? (JSON.parse(panel).viewerId ?? null) : null,
  };
}

function notifyDirectly(ctx: Store, userId: number, title: string): void {
  // A raw insert, as another process would write it: nothing in this process is told.
  ctx.db.$client
    .query("insert into notifications (user_id, type, title, message, created_at) values (?, 'game_started', ?, 'Scores are counting.', ?)")
    .run(userId, title, ctx.clock.now());
}

describe('catalogue pages from the cache for signed-in shoppers', () => {
  test('two users in turn never see each other’s header, cart count, notifications or profile dot', async () => {
    const ctx = await seededStore();
    const book = bookOf(ctx);
    const alice = signedInUser(ctx, 'cache_alice');
    const bob = signedInUser(ctx, 'cache_bob');
    completeProfile(ctx, alice.id);
    expect((await alice.client.post('/api/cart', { json: { productId: book.id, quantity: 2 } })).status).toBeLessThan(300);
    notifyDirectly(ctx, alice.id, 'Only for Alice');
    const visitor = ctx.client();

    for (const path of ['/', '/products', '/products?type=book', `/product/${book.id}`, `/product/${book.id}?tab=competition`]) {
      for (let round = 0; round < 2; round++) {
        const a = await look(alice.client, path);
        const b = await look(bob.client, path);
        const v = await look(visitor, path);
        expect(a.account).toBe('Account menu for cache_alice');
        expect(b.account).toBe('Account menu for cache_bob');
        expect(v.account).toBeNull();
        expect([a.cartCount, b.cartCount, v.cartCount]).toEqual([2, 0, 0]);
        expect(a.bell?.initial.map((n) => n.title)).toEqual(['Only for Alice']);
        expect(a.bell?.unread).toBe(1);
        expect(b.bell).toEqual({ initial: [], unread: 0 });
        expect(v.bell).toBeNull();
        expect([a.profileDot, b.profileDot, v.profileDot]).toEqual([false, true, false]);
      }
    }
    // The shared pages came from the cache: the second round of everyone was a hit.
    expect(ctx.pageCache.hits).toBeGreaterThanOrEqual(5 * 5);
  });

  test("the 'You' marker is the viewer's own, and only players get a page of their own", async () => {
    const ctx = await seededStore();
    const book = bookOf(ctx);
    const alice = await player(ctx, 'you_alice');
    const bob = await player(ctx, 'you_bob');
    const carol = signedInUser(ctx, 'you_carol');
    const alicePlay = await enter(alice, book.id, fivePicks(ctx.db, 0));
    const bobPlay = await enter(bob, book.id, fivePicks(ctx.db, 0));
    const path = `/product/${book.id}?tab=competition`;
    for (let round = 0; round < 2; round++) {
      const a = await look(alice.client, path);
      const b = await look(bob.client, path);
      const c = await look(carol.client, path);
      const v = await look(ctx.client(), path);
      expect(a.mine).toEqual([String(alicePlay.id)]);
      expect(a.viewerId).toBe(alice.id);
      expect(b.mine).toEqual([String(bobPlay.id)]);
      expect(b.viewerId).toBe(bob.id);
      // Carol has no entry: she shares the visitors' page, with nobody's line marked.
      expect(c.mine).toEqual([]);
      expect(c.viewerId).toBeNull();
      expect(v.mine).toEqual([]);
      expect(v.viewerId).toBeNull();
    }
  });

  test('a cart change shows on the next page at once, made here or by another process', async () => {
    const ctx = await seededStore();
    const book = bookOf(ctx);
    const alice = signedInUser(ctx, 'fresh_alice');
    completeProfile(ctx, alice.id);
    expect((await look(alice.client, '/')).cartCount).toBe(0);
    expect((await alice.client.post('/api/cart', { json: { productId: book.id, quantity: 1 } })).status).toBeLessThan(300);
    expect((await look(alice.client, '/')).cartCount).toBe(1);
    expect((await look(alice.client, `/product/${book.id}`)).cartCount).toBe(1);
    // Another process empties the cart: a raw delete, nothing in this process is told.
    ctx.db.$client.query('delete from cart_items where user_id = ?').run(alice.id);
    expect((await look(alice.client, '/')).cartCount).toBe(0);
    notifyDirectly(ctx, alice.id, 'From elsewhere');
    expect((await look(alice.client, '/')).bell?.unread).toBe(1);
    ctx.db.$client.query('update notifications set read = 1 where user_id = ?').run(alice.id);
    expect((await look(alice.client, '/')).bell?.unread).toBe(0);
    expect((await look(alice.client, '/')).profileDot).toBe(false);
    ctx.db.$client.query('update user_profiles set phone = null where user_id = ?').run(alice.id);
    expect((await look(alice.client, '/')).profileDot).toBe(true);
  });

  test('a flash toast is shown once on a cached page, to its own viewer only', async () => {
    const ctx = await seededStore();
    const alice = signedInUser(ctx, 'toast_alice');
    await look(alice.client, '/');
    alice.client.cookies.set('csa_flash', encodeURIComponent(JSON.stringify({ title: 'Saved for Alice' })));
    const first = await (await alice.client.get('/')).text();
    expect(first).toContain('Saved for Alice');
    expect(await (await alice.client.get('/')).text()).not.toContain('Saved for Alice');
    expect(await (await ctx.client().get('/')).text()).not.toContain('Saved for Alice');
  });

  test("the home page's first two images are preloaded from <head>, whether their cards were rendered or kept", async () => {
    const ctx = await seededStore();
    for (const path of ['/?utm=first', '/?utm=second', '/']) {
      const html = await (await ctx.client().get(path)).text();
      expect(count(html, 'head link[rel="preload"][as="image"][fetchpriority="high"]')).toBe(2);
      expect(count(html, 'body [fetchpriority="high"]')).toBe(2);
    }
  });

  test('the gzip body is the page, joined from pieces compressed apart', async () => {
    const ctx = await seededStore();
    const alice = signedInUser(ctx, 'gzip_alice');
    // '/' from the cache (pieces compressed apart), '/?utm=x' rendered for the request alone.
    for (const [client, path] of [alice.client, ctx.client()].flatMap((client) => ['/', '/?utm=x'].map((path) => [client, path] as const))) {
      await client.get(path);
      const plain = await (await client.get(path, { headers: { 'accept-encoding': 'identity' } })).text();
      const zipped = await client.get(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(new Uint8Array(await zipped.arrayBuffer())).toString('utf8')).toBe(plain);
      expect(plain.startsWith('<!doctype html><html lang="en">')).toBe(true);
      expect(plain.endsWith('</body></html>')).toBe(true);
      expect(plain).not.toContain('<csa-slot');
    }
  });
});
