import { describe, expect, test } from 'bun:test';
import { formatStoreDateTime, formatStoreMoment } from '../../src/shared/store-time.ts';
import { adminWithPin, quickShopper } from '../helpers/actors.ts';
import { auctionStore, placeBid, putAuction } from '../helpers/auctions.ts';
import { mainOf, textOf } from '../helpers/html.ts';
import { joinTeam, startTeam, teamMails, teamOrders, teamProduct } from '../helpers/teams.ts';

/*
 * Times in one form (issue 37 item 13): every page and e-mail that shows a time shows it in the
 * store's zone, named (PST or PDT), from the one formatter in src/shared/store-time.ts. Each page
 * is rendered as its reader gets it and searched for any time without the store's zone name and
 * for any other zone.
 */

const HOUR = 60 * 60 * 1000;
/** A clock time ('3:04 PM', '3:04:05 PM') and what follows it. */
const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2})? ?[AP]M\b(.{0,4})/g;
const OTHER_ZONES = /\b(UTC|GMT|EST|EDT|CST|CDT|MST|MDT|HST|AKST|AKDT)\b|GMT[+-]\d/;

/** Every clock time in the text is followed by the store's zone name, no other zone appears, and there is at least one. */
function expectStoreTimes(text: string, where: string): void {
  const found = [...text.matchAll(CLOCK)];
  expect(found.length, `${where}: no time shown`).toBeGreaterThan(0);
  for (const match of found) expect(match[1], `${where}: '${match[0]}' names no zone`).toMatch(/^ P[SD]T/);
  expect(text.match(OTHER_ZONES)?.[0] ?? null, `${where}: another zone`).toBeNull();
}

describe('one zone, named, everywhere', () => {
  test('the formatter: the store zone in winter and in summer, whatever the server runs in', () => {
    expect(formatStoreDateTime(Date.UTC(2026, 10, 21, 18, 0))).toBe('Nov 21, 2026, 10:00 AM PST');
    expect(formatStoreDateTime(Date.UTC(2026, 6, 1, 0, 0))).toBe('Jun 30, 2026, 5:00 PM PDT');
    const now = Date.UTC(2026, 10, 21, 18, 0);
    expect(formatStoreMoment(now - 5_000, now)).toBe('9:59:55 AM PST');
    // 7 AM UTC on the 21st is still the 20th in California: another day there.
    expect(formatStoreMoment(Date.UTC(2026, 10, 21, 7, 0), now)).toBe('Nov 20, 11:00:00 PM PST');
  });

  test('auctions: the bid history, /auctions, the admin auction page and the bidder Bids tab', async () => {
    const ctx = await auctionStore();
    const endsAt = new Date(ctx.clock.now() + 3 * HOUR).toISOString();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, endsAt })).status).toBe(200);
    const alice = quickShopper(ctx, 'alice');
    expect((await placeBid(alice.client, ctx.product.id, 20)).status).toBe(201);
    // The bid history is rendered in the HTML the island hydrates, as the browser shows it.
    const product = textOf(mainOf(await (await ctx.client().get(`/product/${ctx.product.id}`)).text()));
    expect(product).toContain('10:00:00 AM PST');
    expectStoreTimes(product, 'the product page');
    expectStoreTimes(textOf(mainOf(await (await ctx.client().get('/auctions')).text())), '/auctions');
    expectStoreTimes(textOf(mainOf(await (await ctx.admin.get(`/admin/products/${ctx.product.id}/auction`)).text())), 'the admin auction page');
    const bidsTab = textOf(mainOf(await (await alice.client.get('/profile?tab=bids')).text()));
    expect(bidsTab.match(OTHER_ZONES)).toBeNull();
  });

  test('teams: the e-mail, the order page, the admin orders and teams tabs; Placed comes before Paid', async () => {
    const ctx = await auctionStore();
    const productId = teamProduct(ctx);
    const alice = quickShopper(ctx, 'alice');
    const bob = quickShopper(ctx, 'bobby');
    const { code } = (await (await startTeam(alice.client, productId)).json()) as { code: string };
    ctx.clock.advance(HOUR);
    expect((await joinTeam(bob.client, code)).status).toBeLessThan(300);

    const started = teamMails(ctx).find((mail) => mail.subject === 'Your team is open')!;
    expect(started.textBody).toContain('PST');
    expectStoreTimes(started.textBody, 'the team e-mail');
    expectStoreTimes(started.htmlBody.replace(/<[^>]+>/g, ' '), 'the team e-mail (HTML)');

    const { order } = teamOrders(ctx).find((row) => row.order.userId === alice.id)!;
    const html = await (await alice.client.get(`/orders/${order.id}`)).text();
    expectStoreTimes(textOf(mainOf(html)), 'the order page');
    // The team's hold was taken an hour before the order existed: still, the order is Placed, then Paid.
    const steps = [...html.matchAll(/data-step="([^"]+)"/g)].map((match) => match[1]);
    expect(steps.slice(0, 2)).toEqual(['Placed', 'Paid']);

    const admin = await adminWithPin(ctx);
    expectStoreTimes(textOf(mainOf(await (await admin.get('/admin?tab=orders')).text())), 'the admin orders tab');
  });
});
