import { describe, expect, test } from 'bun:test';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import { holdRows, joinTeam, startTeam, stockOf, teamOrders, teamProduct, teamRows } from '../helpers/teams.ts';

/*
 * Team buys against the fake Square with latency and lost answers (issue 29, the team tests):
 * two joiners at once for the last place, an answer lost on the second hold, a capture that
 * failed once, and the expiry's void.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PAYMENTS = { method: 'POST', path: '/v2/payments' };
const LIST = { method: 'GET', path: '/v2/payments' };
const COMPLETE = { method: 'POST', path: /\/complete$/ };
const CANCEL = { method: 'POST', path: /\/cancel$/ };

const openStore = squareStoresOfFile();

async function openTeam(s: SquareStore, quantity = 5) {
  const productId = teamProduct(s, quantity);
  const alice = await s.shopper('alice');
  const response = await startTeam(alice.client, productId);
  expect(response.status).toBe(201);
  const { code } = (await response.json()) as { code: string };
  return { productId, alice, code };
}

const squareStatuses = (s: SquareStore) => s.fake.payments().map((p) => p.status as string);

describe.concurrent('team buys on Square', () => {
  test('two joiners at once for the last place: one wins; the other is refused before any hold, their unit never taken', async () => {
    const s = await openStore();
    const { productId, code } = await openTeam(s, 3);
    const bob = await s.shopper('bob');
    const carol = await s.shopper('carol');
    // The holds take a while: both requests are in flight together.
    s.fake.setLatency(300, PAYMENTS);
    const answers = await Promise.all([joinTeam(bob.client, code), joinTeam(carol.client, code)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(((await refused.json()) as { message: string }).message).toMatch(/joining this team right now|already full/);
    expect(squareStatuses(s)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(teamOrders(s)).toHaveLength(2);
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(stockOf(s, productId)).toBe(1);
  });

  test('a double click on Start a team (two requests at once, no key): one team, one hold; the other is told it already has one', async () => {
    const s = await openStore();
    const productId = teamProduct(s, 5);
    const alice = await s.shopper('alice');
    s.fake.setLatency(300, PAYMENTS);
    const answers = await Promise.all([1, 2].map(() => alice.client.post(`/api/products/${productId}/teams`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(teamRows(s)).toHaveLength(1);
    expect(squareStatuses(s)).toEqual(['APPROVED']);
    expect(stockOf(s, productId)).toBe(4);
  });

  test('the second hold approved but its answer lost: found under our key, both captured, one order each', async () => {
    const s = await openStore();
    const { code } = await openTeam(s);
    const bob = await s.shopper('bob');
    s.fake.failNext({ status: 500, afterProcessing: true }, PAYMENTS);
    const answer = await joinTeam(bob.client, code);
    expect(answer.status).toBe(201);
    expect(squareStatuses(s)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(teamOrders(s)).toHaveLength(2);
  });

  test('the second hold unknown (answer and lookup lost): 502, then the reconciler finishes it: both captured, one order each', async () => {
    const s = await openStore();
    const { code, productId } = await openTeam(s);
    const bob = await s.shopper('bob');
    s.fake.failNext({ status: 500, afterProcessing: true }, PAYMENTS);
    s.fake.failNext({ status: 503 }, LIST);
    const answer = await joinTeam(bob.client, code);
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { code: string }).code).toBe('PAYMENT_UNCONFIRMED');
    expect(teamRows(s)[0]!.status).toBe('joining');
    expect(teamOrders(s)).toHaveLength(0);
    // Pressed again while it is settled: told so, no second hold.
    const again = await joinTeam(bob.client, code);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('CHECKOUT_IN_PROGRESS');
    s.clock.advance(MINUTE);
    await s.tick();
    expect(squareStatuses(s)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(teamOrders(s)).toHaveLength(2);
    expect(stockOf(s, productId)).toBe(3);
  });

  test('the second hold never reached Square: the reconciler gives the place back, the starter still held, the team open again', async () => {
    const s = await openStore();
    const { code, productId } = await openTeam(s);
    const bob = await s.shopper('bob');
    s.fake.failNext({ status: 500 }, PAYMENTS);
    s.fake.failNext({ status: 503 }, LIST);
    expect((await joinTeam(bob.client, code)).status).toBe(502);
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(teamRows(s)[0]!.status).toBe('open');
    expect(squareStatuses(s)).toEqual(['APPROVED']);
    expect(stockOf(s, productId)).toBe(4);
    expect(holdRows(s).map((row) => row.status)).toEqual(['authorized', 'failed']);
  });

  test('a capture that failed once: retried by the reconciler, then the teams job gives each member their order', async () => {
    const s = await openStore();
    const { code } = await openTeam(s);
    const bob = await s.shopper('bob');
    s.fake.failNext({ status: 500 }, COMPLETE);
    s.fake.failNext({ status: 503 }, { method: 'GET', path: /^\/v2\/payments\/.+/ });
    const answer = await joinTeam(bob.client, code);
    expect(answer.status).toBe(201);
    expect(teamRows(s)[0]!.status).toBe('capturing');
    expect(teamOrders(s)).toHaveLength(0);
    s.clock.advance(2 * MINUTE);
    await s.tick();
    await runTeamJobs(s.games);
    expect(squareStatuses(s)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(teamOrders(s)).toHaveLength(2);
  });

  test('expiry: the hold is canceled at Square, the unit back on the shelf', async () => {
    const s = await openStore();
    const { productId } = await openTeam(s, 2);
    expect(stockOf(s, productId)).toBe(1);
    s.clock.advance(DAY);
    expect(await runTeamJobs(s.games)).toEqual({ expired: 1, finished: 0 });
    await s.fake.waitForProcessed(CANCEL);
    expect(squareStatuses(s)).toEqual(['CANCELED']);
    expect(stockOf(s, productId)).toBe(2);
    expect(holdRows(s)[0]!.status).toBe('voided');
  });
});
