import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { DEMO_CHARITY } from '../../src/config.ts';
import { games, notifications, orders, plays, products } from '../../src/db/schema.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { buyNowBody, completeProfile } from '../helpers/actors.ts';
import { afterRedirect, enter, player, postForm, type Store, seededStore, signedInAdmin, signedInUser } from '../helpers/admin-tools.ts';
import { donatableTee, donationBody } from '../helpers/donations.ts';
import { fivePicks } from '../helpers/games.ts';
import { all, first, textOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/*
 * Issue 29, 'Buy to donate' for the admin: a donation shows in the fulfilment list as one to
 * hand over to the charity (with a Donations filter and CSV), and the Promotions tab lists
 * purchase donations and the game's prize donations together, with a CSV export.
 */

const HOUR = 3_600_000;

async function donation(ctx: Store) {
  const giver = signedInUser(ctx, `giver${Math.random().toString(36).slice(2, 8)}`);
  completeProfile(ctx, giver.id);
  const tee = donatableTee(ctx);
  const response = await giver.client.post('/api/orders', { json: donationBody(tee.id, tee.priceCents) });
  expect(response.status).toBe(201);
  return { id: ((await response.json()) as { id: number }).id, giver };
}

async function purchase(ctx: Store) {
  const buyer = signedInUser(ctx, 'buyer');
  completeProfile(ctx, buyer.id);
  const product = ctx.db.select().from(products).where(eq(products.brand, 'Ray-Ban')).get()!;
  const response = await buyer.client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** Two players on the $2 book; the winner donates the prize from My Games. */
async function donatedPrize(ctx: Store) {
  const book = ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
  const a = await player(ctx, 'alice');
  const b = await player(ctx, 'bob');
  await enter(a, book.id, fivePicks(ctx.db, 0));
  await enter(b, book.id, fivePicks(ctx.db, 5));
  ctx.clock.advance(2 * HOUR);
  await runGameJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics });
  const game = ctx.db.select().from(games).where(eq(games.productId, book.id)).get()!;
  const winnerId = ctx.db.select().from(plays).where(eq(plays.id, game.winnerPlayId!)).get()!.userId;
  const winner = winnerId === a.id ? a : b;
  expect((await winner.client.post(`/api/games/${game.id}/donate`, { json: {} })).status).toBe(200);
  return { game, book };
}

const orderRow = (html: string, id: number) => first(html, `article[data-order-id="${id}"]`);

describe('the fulfilment list', () => {
  test("a donation reads 'Donation to hand over to {charity}', with the charity's address; the Donations filter shows donations only", async () => {
    const ctx = await seededStore();
    const { id } = await donation(ctx);
    const other = await purchase(ctx);
    const admin = await signedInAdmin(ctx);
    const list = await (await admin.get('/admin?tab=orders')).text();
    const row = orderRow(list, id)!;
    expect(textOf(first(row, '[data-donation-to]')!)).toBe(`Donation to hand over to ${DEMO_CHARITY.name}`);
    expect(textOf(row)).toContain(DEMO_CHARITY.address);
    expect(textOf(row)).toContain('Mark handed over');
    expect(first(orderRow(list, other)!, '[data-donation-to]')).toBeUndefined();

    const filtered = await (await admin.get('/admin?tab=orders&donations=1')).text();
    expect(all(filtered, 'article[data-order-id]').map((a) => Number(a.getAttribute('data-order-id')))).toEqual([id]);
    const csv = await (await admin.get('/admin/orders.csv?donations=1')).text();
    expect(csv.trim().split('\r\n')).toHaveLength(2);
    expect(csv).toContain(`Donation: hand over to ${DEMO_CHARITY.name}`);
  });

  test('Mark handed over: the order is completed, the donor is told by notification and e-mail that it went to the charity', async () => {
    const ctx = await seededStore();
    const { id, giver } = await donation(ctx);
    const admin = await signedInAdmin(ctx);
    const done = await afterRedirect(admin, await postForm(admin, `/admin/orders/${id}/status`, { status: 'completed', confirmed: 'yes' }));
    expect(done.toast?.description).toBe(`Order #${id} marked as delivered.`);
    expect(ctx.db.select().from(orders).where(eq(orders.id, id)).get()!.status).toBe('completed');
    const told = ctx.db.select().from(notifications).where(eq(notifications.userId, giver.id)).all();
    expect(told.map((n) => n.message)).toContain(`Your donation #${id} was handed over to ${DEMO_CHARITY.name}. Thank you for giving!`);
    const sent = await deliverOutbox(ctx);
    expect(sent.map((m) => m.subject)).toContain(`Your donation #${id} was handed over`);
    const list = await (await admin.get('/admin?tab=orders&donations=1')).text();
    expect(textOf(first(orderRow(list, id)!, '[data-donation-to]')!)).toBe(`Donation handed over to ${DEMO_CHARITY.name}`);
    // Handed over, it is the charity's: the donor's money-back guarantee has nothing to send back.
    const asked = await giver.client.post(`/api/orders/${id}/return-request`, { json: { reason: 'Changed my mind' } });
    expect(asked.status).toBe(409);
    expect(((await asked.json()) as { message: string }).message).toContain(`went to ${DEMO_CHARITY.name}`);
  });
});

describe('the Promotions tab: donations', () => {
  test('purchase donations and prize donations in one list (date, product, donor, amount, handed over?), and in the CSV', async () => {
    const ctx = await seededStore();
    const { game, book } = await donatedPrize(ctx);
    const { id } = await donation(ctx);
    await purchase(ctx);
    const admin = await signedInAdmin(ctx);
    const html = await (await admin.get('/admin?tab=promotions')).text();
    const section = first(html, '[data-section="donations"]')!;
    const rows = all(section, 'tbody tr').map((tr) => tr.getAttribute('data-donation'));
    expect(rows).toEqual([`purchase-${id}`, `prize-${game.id}`]);
    const purchaseRow = textOf(first(section, `[data-donation="purchase-${id}"]`)!);
    expect(purchaseRow).toContain('Patagonia');
    expect(purchaseRow).toContain('$48.60');
    expect(purchaseRow).toContain('Not yet');
    const prizeRow = textOf(first(section, `[data-donation="prize-${game.id}"]`)!);
    expect(prizeRow).toContain(`Game #${game.id}`);
    expect(prizeRow).toContain('$2.00');
    expect(prizeRow).toContain('Mark handed over');

    const csv = await admin.get('/admin/promotions/donations.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Kind,Order or game,Date,Product,Donor,Amount,Charity,Handed over');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toStartWith(`Purchase,Order #${id},`);
    expect(lines[2]).toStartWith(`Prize,Game #${game.id},`);
    expect(lines[2]).toContain(book.brand);
    expect(lines[2]).toEndWith(`,2.00,${DEMO_CHARITY.name},No`);
  });

  test('a donated prize is marked handed over once: a second click says so and changes nothing', async () => {
    const ctx = await seededStore();
    const { game } = await donatedPrize(ctx);
    const admin = await signedInAdmin(ctx);
    const path = `/admin/promotions/donations/prizes/${game.id}/handed-over`;
    const first = await afterRedirect(admin, await postForm(admin, path));
    expect(first.toast?.title).toBe('Donation handed over');
    const at = ctx.db.select().from(games).where(eq(games.id, game.id)).get()!.prizeHandedOverAt;
    expect(at).toBe(ctx.clock.now());
    ctx.clock.advance(60_000);
    const again = await afterRedirect(admin, await postForm(admin, path));
    expect(again.toast?.description).toBe(`The prize of game #${game.id} was already handed over.`);
    expect(ctx.db.select().from(games).where(eq(games.id, game.id)).get()!.prizeHandedOverAt).toBe(at);
    // A game whose prize was not donated has nothing to hand over.
    const notDonated = await afterRedirect(admin, await postForm(admin, '/admin/promotions/donations/prizes/999999/handed-over'));
    expect(notDonated.toast?.variant).toBe('destructive');
  });

  test('the Promotions tab and its CSV are for admins who passed the PIN only', async () => {
    const ctx = await seededStore();
    const shopper = signedInUser(ctx, 'curious');
    expect((await shopper.client.get('/admin/promotions/donations.csv')).status).not.toBe(200);
    const noPin = await signedInAdmin(ctx, false);
    expect((await noPin.get('/admin/promotions/donations.csv')).headers.get('content-type') ?? '').not.toContain('text/csv');
  });
});
