import { expect, test } from 'bun:test';
import { adminWithPin, quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { textOf } from '../helpers/html.ts';
import { joinTeam, startTeam, teamProduct } from '../helpers/teams.ts';

/*
 * The admin's Promotions tab, team buys (issue 29 item 5): open, filled and expired teams with
 * their members and orders, the CSV export, and the Half price tick box's hint.
 */

async function twoTeams() {
  const ctx = await seededApp();
  const productId = teamProduct(ctx);
  const alice = quickShopper(ctx, 'alice');
  const bob = quickShopper(ctx, 'bob');
  const carol = quickShopper(ctx, 'carol');
  const open = (await (await startTeam(alice.client, productId)).json()) as { code: string };
  const full = (await (await startTeam(carol.client, productId)).json()) as { code: string };
  const joined = (await (await joinTeam(bob.client, full.code)).json()) as { orderId: number };
  return { ctx, open: open.code, full: full.code, orderId: joined.orderId };
}

test('the Promotions tab lists open teams, then filled ones with their orders', async () => {
  const { ctx, open, full, orderId } = await twoTeams();
  const admin = await adminWithPin(ctx);
  const openHtml = await (await admin.get('/admin?tab=promotions')).text();
  expect(textOf(openHtml)).toContain('Half price with a friend: teams');
  expect(textOf(openHtml)).toContain(open);
  expect(textOf(openHtml)).not.toContain(full);
  const filledHtml = await (await admin.get('/admin?tab=promotions&teams=filled')).text();
  expect(textOf(filledHtml)).toContain(full);
  expect(textOf(filledHtml)).toContain(`#${orderId}`);
  expect(textOf(filledHtml)).toContain('bob (joiner, paid)');
});

test('the CSV export: one row per team of the filter, a header first', async () => {
  const { ctx, full } = await twoTeams();
  const admin = await adminWithPin(ctx);
  const response = await admin.get('/admin/promotions/teams.csv?teams=filled');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/csv');
  const lines = (await response.text()).trim().split('\r\n');
  expect(lines[0]).toBe('Team,Status,Product,Started,Ends,Filled,Per member,Members,Orders');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(full);
  expect(lines[1]).toContain('13.50');
});

test('shoppers get neither the tab nor the CSV', async () => {
  const { ctx } = await twoTeams();
  const shopper = quickShopper(ctx, 'dave');
  expect((await shopper.client.get('/admin/promotions/teams.csv')).status).not.toBe(200);
  expect(textOf(await (await shopper.client.get('/admin?tab=promotions')).text())).not.toContain('Half price with a friend: teams');
});

test('the product form explains the Half price tick box', async () => {
  const ctx = await seededApp();
  const admin = await adminWithPin(ctx);
  const html = await (await admin.get('/admin/product/new')).text();
  expect(textOf(html)).toContain('each pays half the price (plus tax) once a friend joins within 24 hours');
});
