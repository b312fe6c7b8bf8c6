import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, products } from '../../src/db/schema.ts';
import { closeDueAuctions, PAYMENT_WINDOW_MS } from '../../src/domain/auctions/close.ts';
import { TestClient } from '../helpers/app.ts';
import { type SquareStore, squareStoresOfFile } from '../helpers/square-app.ts';

/*
 * Issue 36, item 4: a maximum is seen only by its own bidder. Every API answer and page a guest,
 * another bidder or the admin can open is walked for the winner's maximum ($123.45), while the
 * auction runs, awaits payment and is offered to the runner-up; during that offer, the runner-up's
 * price ($60, their maximum) is theirs alone: lists and the admin's views keep the final price.
 */

const open = squareStoresOfFile();
const HOUR = 60 * 60 * 1000;
const SECRET = '123.45';

type Reader = { name: string; client: TestClient; paths: string[] };

/** Every answer `reader` gets, with the path each came from. */
async function walk(readers: Reader[]): Promise<{ where: string; body: string }[]> {
  const seen: { where: string; body: string }[] = [];
  for (const reader of readers) {
    for (const path of reader.paths) {
      const response = await reader.client.get(path);
      expect(response.status, `${reader.name} ${path}`).toBeLessThan(400);
      seen.push({ where: `${reader.name} ${path}`, body: await response.text() });
    }
  }
  return seen;
}

const leaks = (seen: { where: string; body: string }[], secret: string) => seen.filter((page) => page.body.includes(secret)).map((page) => page.where);

describe('maximums stay secret', () => {
  test("another bidder's maximum appears in no answer or page but their own, running, awaiting payment and during a second chance", async () => {
    const s: SquareStore = await open();
    const item = s.db
      .insert(products)
      .values({ brand: 'Maison Lune', model: 'ML-SECRET', name: 'Secret Frames', quantity: 1, priceCents: 40_000, bidEnabled: true, createdAt: s.clock.now() })
      .returning()
      .get();
    const setup = await s.admin('setter').request('PUT', `/api/admin/products/${item.id}/auction`, {
      json: { startingBid: 10, endsAt: new Date(s.clock.now() + HOUR).toISOString() },
    });
    expect(setup.status).toBe(200);
    const a = await s.shopper('alice9', 'cnon:card-nonce-declined');
    const b = await s.shopper('bob99');
    const c = await s.shopper('carol9');
    const bid = (who: { client: TestClient }, max: number) => who.client.post(`/api/products/${item.id}/bids`, { json: { maxAmount: max } });
    expect((await bid(c, 20)).status).toBe(201);
    expect((await bid(a, 123.45)).status).toBe(201);
    expect((await bid(b, 60)).status).toBe(201);
    expect(s.db.select().from(auctions).where(eq(auctions.productId, item.id)).get()).toMatchObject({ currentPriceCents: 6250, leaderId: a.id });

    const guest = new TestClient(s.app);
    const everyone = [`/product/${item.id}`, `/api/products/${item.id}/auction`, '/api/auctions', '/auctions', '/'];
    const bidder = [...everyone, '/api/user/bids', '/profile?tab=bids', '/api/notifications'];
    const adminPaths = [
      '/api/admin/auctions?status=running',
      '/api/admin/auctions?status=awaiting_payment',
      '/admin?tab=auctions',
      '/admin?tab=auctions&status=awaiting_payment',
      `/admin/products/${item.id}/auction`,
      '/api/admin/auction-strikes',
    ];
    const readers = (): Reader[] => [
      { name: 'guest', client: guest, paths: everyone },
      { name: 'bob', client: b.client, paths: bidder },
      { name: 'carol', client: c.client, paths: bidder },
      { name: 'admin', client: s.admin(`watcher${s.clock.now()}`), paths: adminPaths },
    ];
    const own = async () => (await a.client.get(`/api/products/${item.id}/auction`)).text();

    // Running: the leader's maximum is theirs alone (their own view shows it, so the walk would find it).
    expect(await own()).toContain(SECRET);
    expect(leaks(await walk(readers()), SECRET)).toEqual([]);

    // Ended, the winner's card declined: awaiting payment.
    s.clock.advance(HOUR);
    await closeDueAuctions(s.games);
    expect(s.db.select().from(auctions).where(eq(auctions.productId, item.id)).get()!.status).toBe('awaiting_payment');
    expect(leaks(await walk(readers()), SECRET)).toEqual([]);

    // A second chance: bob is offered it at his maximum, $60; everyone else still sees the final price, $62.50.
    s.clock.advance(PAYMENT_WINDOW_MS);
    await closeDueAuctions(s.games);
    expect(s.db.select().from(auctions).where(eq(auctions.productId, item.id)).get()).toMatchObject({ status: 'second_chance', winnerId: b.id });
    expect(leaks(await walk(readers()), SECRET)).toEqual([]);

    const carolBids = await (await c.client.get('/api/user/bids')).json();
    expect(carolBids.lost.map((entry: { currentPrice: number }) => entry.currentPrice)).toEqual([62.5]);
    const owing = await (await s.admin(`owing${s.clock.now()}`).get('/api/admin/auctions?status=awaiting_payment')).json();
    expect(owing.find((row: { productId: number }) => row.productId === item.id)).toMatchObject({ currentPrice: 62.5 });
    const tab = await (await s.admin(`tab${s.clock.now()}`).get('/admin?tab=auctions&status=awaiting_payment')).text();
    const article = tab.slice(tab.indexOf(`data-product-id="${item.id}"`));
    expect(/data-fact="Price"[^>]*>([^<]*)</.exec(article)?.[1]).toBe('$62.50');
    const carolTab = await (await c.client.get('/profile?tab=bids')).text();
    expect(carolTab).toContain('$62.50');
    expect(carolTab).not.toContain('$60.00');
    // Bob's own: his list and his view name his price.
    const bobView = await (await b.client.get(`/api/products/${item.id}/auction`)).json();
    expect(bobView).toMatchObject({ currentPrice: 62.5, payment: { kind: 'second_chance', price: 60 } });
  }, 60_000);
});
