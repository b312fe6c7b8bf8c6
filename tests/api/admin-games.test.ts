import { describe, expect, test } from 'bun:test';
import { and, eq, inArray } from 'drizzle-orm';
import { games, notifications, payments, plays, products } from '../../src/db/schema.ts';
import { FINISHED_SHOWN, listGamesForAdmin } from '../../src/domain/games/admin-games.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { fivePicks } from '../helpers/games.ts';
import { all, count, hrefsOf, textOf } from '../helpers/html.ts';
import { afterRedirect, enter, player, postForm, seededStore, signedInAdmin, signedInUser, unlockAgain, type Store } from '../helpers/admin-tools.ts';

/*
 * The admin's Games tab (/admin?tab=games): every game under its state with entries, times
 * (America/Los_Angeles) and $1 holds, a link to each game's public record, and Cancel game with
 * a confirmation step that works without JavaScript: every hold voided, the players told
 * (game_ended), a live game's unit back in stock. Only an admin who passed the PIN gets in.
 */

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 21, 19, 0); // 11:00 AM in Laguna Beach
const CANCELED_MESSAGE = 'The store canceled the game for The Old Man and the Sea. Your $1 hold was released; nothing was charged.';

const productBy = (ctx: Store, brand: string) => ctx.db.select().from(products).where(eq(products.brand, brand)).get()!;
/** $2 and 6 in stock: two players fill a game. */
const book = (ctx: Store) => productBy(ctx, 'The Old Man and the Sea');
/** $8: eight players. */
const giftBook = (ctx: Store) => productBy(ctx, 'Gift from the Sea');
const gameOf = (ctx: Store, id: number) => ctx.db.select().from(games).where(eq(games.id, id)).get()!;
const jobs = (ctx: Store) => runGameJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics });
/** The statuses of a game's $1 holds (payments of its plays). */
const holdsOf = (ctx: Store, gameId: number) =>
  ctx.db
    .select({ status: payments.status })
    .from(payments)
    .innerJoin(plays, eq(payments.playId, plays.id))
    .where(and(eq(plays.gameId, gameId), eq(payments.kind, 'play_authorization')))
    .all()
    .map((p) => p.status);

/** The book's game filled by two players (waiting for 19:00). */
async function fullBookGame(ctx: Store) {
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const { gameId } = await enter(alice, book(ctx).id, fivePicks(ctx.db, 0));
  await enter(bob, book(ctx).id, fivePicks(ctx.db, 5));
  return { gameId, players: [alice.id, bob.id] };
}

/** The Games tab's sections: each state with the rows (id, element and text) listed under it, in order. */
function sectionsOf(html: string): Record<string, { id: number; row: Element; text: string }[]> {
  const out: Record<string, { id: number; row: Element; text: string }[]> = {};
  for (const section of all(html, 'section[data-status]')) {
    out[section.getAttribute('data-status')!] = all(section, 'li[data-game-id]').map((row) => ({
      id: Number(row.getAttribute('data-game-id')),
      row,
      text: textOf(row),
    }));
  }
  return out;
}

describe('the Games tab', () => {
  test('every game under its state, newest first, with entries, LA times, holds, its record link, and Cancel only while open', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    // A completed game (19:00-20:00), a live one (21:00-22:00), two waiting and one canceled.
    const first = await fullBookGame(ctx);
    ctx.clock.set(START + 5 * 60_000);
    await jobs(ctx);
    ctx.clock.set(START + HOUR + 5 * 60_000);
    await jobs(ctx);
    const [carol, dave, erin, frank, gus] = [
      await player(ctx, 'carol'),
      await player(ctx, 'dave'),
      await player(ctx, 'erin'),
      await player(ctx, 'frank'),
      await player(ctx, 'gus'),
    ];
    const live = (await enter(carol, book(ctx).id, fivePicks(ctx.db, 0))).gameId;
    await enter(dave, book(ctx).id, fivePicks(ctx.db, 5));
    ctx.clock.set(START + 2 * HOUR + 5 * 60_000);
    await jobs(ctx);
    await unlockAgain(admin); // hours passed: the PIN unlock idled out after 30 minutes
    const canceled = (await enter(erin, giftBook(ctx).id, fivePicks(ctx.db, 0))).gameId;
    await afterRedirect(admin, await postForm(admin, `/admin/games/${canceled}/cancel`));
    const waitingBook = (await enter(frank, book(ctx).id, fivePicks(ctx.db, 0))).gameId;
    const waitingGift = (await enter(gus, giftBook(ctx).id, fivePicks(ctx.db, 0))).gameId;

    const page = await admin.get('/admin?tab=games');
    expect(page.status).toBe(200);
    const tab = sectionsOf(await page.text());
    expect(Object.fromEntries(Object.entries(tab).map(([status, rows]) => [status, rows.map((r) => r.id)]))).toEqual({
      active: [live],
      waiting: [waitingGift, waitingBook],
      completed: [first.gameId],
      canceled: [canceled],
    });
    const row = (status: string) => tab[status]![0]!;
    for (const [status, id] of [
      ['active', live],
      ['completed', first.gameId],
      ['canceled', canceled],
    ] as const)
      expect(hrefsOf(row(status).row)).toContain(`/games/${id}`);
    expect(row('active').text).toBe(
      `Game #${live} · The Old Man and the Sea BK-OLDMAN-001 2/2 entries · opened Nov 21, 12:05 PM PST · Nov 21, 1:00 PM PST to Nov 21, 2:00 PM PST Holds: 2 authorized Cancel game`,
    );
    expect(row('completed').text).toContain('2/2 entries');
    expect(row('completed').text).toContain('Holds: 2 captured');
    expect(row('canceled').text).toContain('1/8 entries');
    expect(row('canceled').text).toContain('Canceled by the store. Holds: 1 voided');
    expect(tab.waiting!.map((r) => r.text.match(/\d+\/\d+ entries/)?.[0])).toEqual(['1/8 entries', '1/2 entries']);
    for (const status of ['active', 'waiting']) for (const r of tab[status]!) expect(hrefsOf(r.row)).toContain(`/admin/games/${r.id}/cancel`);
    for (const status of ['completed', 'canceled']) expect(count(row(status).row, '[href$="/cancel"], [action$="/cancel"]')).toBe(0);
  });

  test('finished lists stop at the latest FINISHED_SHOWN', async () => {
    const ctx = await seededStore();
    const rows = Array.from({ length: FINISHED_SHOWN + 2 }, (_, i) => ({
      productId: book(ctx).id,
      status: 'canceled' as const,
      requiredParticipants: 2,
      createdAt: ctx.clock.now() + i,
    }));
    ctx.db.insert(games).values(rows).run();
    const canceled = listGamesForAdmin(ctx.db).canceled;
    expect(canceled).toHaveLength(FINISHED_SHOWN);
    expect(canceled[0]!.id).toBeGreaterThan(canceled[1]!.id);
  });
});

describe('Cancel game', () => {
  test('a waiting game: a confirmation step first; then every hold voided, players told (game_ended), the game canceled', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const { gameId, players } = await fullBookGame(ctx);
    expect(holdsOf(ctx, gameId)).toEqual(['authorized', 'authorized']);

    const confirm = await admin.get(`/admin/games/${gameId}/cancel`);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(html).toContain(`Cancel game #${gameId}?`);
    expect(count(html, `form[action="/admin/games/${gameId}/cancel"][method="post"]`)).toBeGreaterThan(0);
    expect(gameOf(ctx, gameId).status).toBe('waiting'); // looking changes nothing

    const { toast } = await afterRedirect(admin, await postForm(admin, `/admin/games/${gameId}/cancel`));
    expect(toast).toMatchObject({ title: 'Game canceled', variant: 'default' });
    expect(gameOf(ctx, gameId)).toMatchObject({ status: 'canceled', cancelReason: 'Canceled by the store.', canceledAt: ctx.clock.now() });
    expect(holdsOf(ctx, gameId)).toEqual(['voided', 'voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(
      ctx.db
        .select()
        .from(plays)
        .where(eq(plays.gameId, gameId))
        .all()
        .map((p) => p.status),
    ).toEqual(['void', 'void']);
    const told = ctx.db
      .select()
      .from(notifications)
      .where(and(inArray(notifications.userId, players), eq(notifications.type, 'game_ended')))
      .all();
    expect(told.map((n) => [n.userId, n.title, n.message])).toEqual(players.map((id) => [id, 'Game canceled', CANCELED_MESSAGE]));

    // Again: the game is no longer open, so nothing happens and the admin is told.
    const again = await afterRedirect(admin, await postForm(admin, `/admin/games/${gameId}/cancel`));
    expect(again.toast).toMatchObject({ title: 'Not canceled', description: `Game #${gameId} is no longer waiting or live.`, variant: 'destructive' });
    expect(ctx.db.select().from(notifications).where(eq(notifications.type, 'game_ended')).all()).toHaveLength(2);
    expect(await (await admin.get(`/admin/games/${gameId}/cancel`)).text()).not.toContain('>Cancel game</button>');

    const unknown = await afterRedirect(admin, await postForm(admin, '/admin/games/99999/cancel'));
    expect(unknown.toast).toMatchObject({ title: 'Game not found', variant: 'destructive' });
  });

  test('a live game: its reserved unit goes back to stock, and the hour ends with nothing settled or charged', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const { gameId, players } = await fullBookGame(ctx);
    const stock = () => book(ctx).quantity;
    const before = stock();
    ctx.clock.set(START + 5 * 60_000);
    await jobs(ctx);
    expect(gameOf(ctx, gameId).status).toBe('active');
    expect(stock()).toBe(before - 1);
    await unlockAgain(admin);

    expect(await (await admin.get(`/admin/games/${gameId}/cancel`)).text()).toContain('The unit reserved for the winner goes back into stock.');
    expect((await afterRedirect(admin, await postForm(admin, `/admin/games/${gameId}/cancel`))).toast?.title).toBe('Game canceled');
    expect(gameOf(ctx, gameId).status).toBe('canceled');
    expect(stock()).toBe(before);
    expect(holdsOf(ctx, gameId)).toEqual(['voided', 'voided']);
    for (const id of players) {
      expect(
        ctx.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, id), eq(notifications.type, 'game_ended')))
          .all(),
      ).toHaveLength(1);
    }

    ctx.clock.set(START + 2 * HOUR);
    expect((await jobs(ctx)).settled).toEqual([]);
    expect(ctx.gateway.payments().filter((p) => p.status === 'COMPLETED')).toEqual([]);
    expect(stock()).toBe(before);
  });
});

describe('access', () => {
  test('signed out, a shopper, and an admin without the PIN: no tab, no cancel, the game untouched', async () => {
    const ctx = await seededStore();
    const { gameId } = await fullBookGame(ctx);
    const path = `/admin/games/${gameId}/cancel`;

    const visitor = ctx.client();
    expect((await visitor.get('/admin?tab=games')).headers.get('location')).toStartWith('/auth?next=');
    expect((await postForm(visitor, path)).headers.get('location')).toStartWith('/auth?next=');

    const shopper = signedInUser(ctx, 'shopper1').client;
    expect((await shopper.get('/admin?tab=games')).status).toBe(403);
    expect((await shopper.get(path)).status).toBe(403);
    expect((await postForm(shopper, path)).status).toBe(403);

    const noPin = await signedInAdmin(ctx, false);
    const pinScreen = await (await noPin.get(path)).text();
    expect(pinScreen).toContain('Admin Authentication');
    expect(pinScreen).not.toContain(`Cancel game #${gameId}?`);
    const refused = await postForm(noPin, path);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Admin Authentication');

    expect(gameOf(ctx, gameId).status).toBe('waiting');
    expect(holdsOf(ctx, gameId)).toEqual(['authorized', 'authorized']);
    expect(ctx.db.select().from(notifications).where(eq(notifications.type, 'game_ended')).all()).toEqual([]);
  });
});
