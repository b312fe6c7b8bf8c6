import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '../helpers/server.ts';

/*
 * A newcomer's first start (issue 28, "every card that says Bid leads to a real auction"): the
 * demo store opens an auction on each in-stock product the demo catalogue marks for bidding,
 * each card that says Bid links to a product page with the auction panel, and no card says Bid
 * where there is no auction. A second process started on the same folder opens none again.
 */

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(folder, { recursive: true, force: true });
});
const folder = mkdtempSync(join(tmpdir(), 'csa-demo-auctions-'));

describe('the demo store opens its auctions', () => {
  test('each biddable demo product runs an auction; every Bid badge leads to one', async () => {
    const server = await startServer({ dataDir: folder, quiet: true });
    servers.push(server);
    const products = (await (await fetch(`${server.url}/api/products`)).json()) as { id: number; bidEnabled: boolean }[];
    const biddable = products.filter((product) => product.bidEnabled).map((product) => product.id);
    expect(biddable.length).toBeGreaterThan(0);
    const running = (await (await fetch(`${server.url}/api/auctions`)).json()) as { productId: number; endsAt: string }[];
    expect(running.map((auction) => auction.productId).sort()).toEqual([...biddable].sort());
    // Staggered ends: not all at once.
    expect(new Set(running.map((auction) => auction.endsAt.slice(0, 10))).size).toBeGreaterThan(1);

    const home = await (await fetch(`${server.url}/products`)).text();
    const cards = [...home.matchAll(/href="\/product\/(\d+)"[\s\S]*?<\/article>/g)];
    const saysBid = cards.filter((card) => /Bid ·/.test(card[0])).map((card) => Number(card[1]));
    expect(saysBid.length).toBeGreaterThan(0);
    for (const id of saysBid) {
      expect(biddable).toContain(id);
      const page = await (await fetch(`${server.url}/product/${id}`)).text();
      expect(page).toContain('data-island="AuctionPanel"');
    }

    // The same folder started again (a restart, or a second process) opens nothing twice.
    await server.stop();
    servers.pop();
    const again = await startServer({ dataDir: folder, quiet: true });
    servers.push(again);
    const after = (await (await fetch(`${again.url}/api/auctions`)).json()) as unknown[];
    expect(after.length).toBe(running.length);
  }, 90_000);
});
