import { describe, expect, test } from 'bun:test';
import { dirname, join } from 'node:path';
import { eq } from 'drizzle-orm';
import { mysteryDraws, orderItems, orders } from '../../src/db/schema.ts';
import { verifyDraw } from '../../src/domain/promotions/mystery-audit.ts';
import { projectRoot } from '../../src/runtime-files.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import { boxOf, drawsOf, stocksOf } from '../helpers/boxes.ts';

/*
 * A mystery box's money against the fake Square with real failures (DESIGN section 5): an answer
 * lost after Square took the money is one charge and one draw; an outcome left unknown is
 * finished by the reconciler without drawing again. And `bun run verify-draw ORDER` on the
 * store's own file: MATCH for the real draw, MISMATCH for a tampered one.
 */

const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };
const MINUTE = 60_000;
const open = squareStoresOfFile();
const completed = (s: SquareStore) => s.fake.payments().filter((p) => p.status === 'COMPLETED');
const buy = (post: (path: string, options: { json: unknown; headers: Record<string, string> }) => Promise<Response>, key = crypto.randomUUID()) =>
  post('/api/mystery-boxes/sunglasses/orders', { json: {}, headers: { 'idempotency-key': key } });

function verifyDrawCli(s: SquareStore, orderId: number) {
  const dataDir = dirname(s.db.$client.filename);
  const run = Bun.spawnSync(['bun', join(projectRoot, 'src/cli/verify-draw.ts'), String(orderId)], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: run.exitCode, out: run.stdout.toString() + run.stderr.toString() };
}

describe.concurrent('a mystery box against Square', () => {
  test('Square answers 500 after taking the money: the order is paid, with one charge and one draw', async () => {
    const s = await open();
    const set = boxOf(s, 'sunglasses', [2, 2]);
    const { client } = await s.shopper('lost-box');
    s.fake.failNext({ status: 500, afterProcessing: true }, PAYMENTS_PATH);
    const answer = await buy(client.post.bind(client));
    expect(answer.status).toBe(201);
    const { orderId } = await answer.json();
    expect(completed(s)).toHaveLength(1);
    expect(s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.status).toBe('processing');
    expect(drawsOf(s)).toHaveLength(1);
    expect(
      stocksOf(
        s,
        set.products.map((p) => p.id),
      ).reduce((a, b) => a + b),
    ).toBe(3);
    expect(verifyDraw(s.db, orderId).ok).toBe(true);
  });

  test('an unknown outcome: on hold with the unit reserved; the reconciler ends it (never taken: unit back) without a second draw', async () => {
    const s = await open();
    const set = boxOf(s, 'sunglasses', [1, 1]);
    const { client } = await s.shopper('unsure-box');
    s.fake.failNext({ status: 500 }, PAYMENTS_PATH);
    const answer = await buy(client.post.bind(client));
    expect(answer.status).toBe(502);
    const { orderId } = await answer.json();
    expect(s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.status).toBe('pending');
    expect(
      stocksOf(
        s,
        set.products.map((p) => p.id),
      ).reduce((a, b) => a + b),
    ).toBe(1);
    // A second try while it is unknown is refused: it could pay twice.
    expect((await buy(client.post.bind(client))).status).toBe(409);
    s.clock.advance(3 * MINUTE);
    await s.tick();
    // Square never took it: the order fails and the unit is back, the draw was the only one.
    expect(s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.status).toBe('failed');
    expect(
      stocksOf(
        s,
        set.products.map((p) => p.id),
      ),
    ).toEqual([1, 1]);
    expect(drawsOf(s)).toHaveLength(1);
    expect(completed(s)).toHaveLength(0);
  });

  test('verify-draw ORDER: MATCH (exit 0) for the real draw, MISMATCH (exit 1) once tampered, 2 for no draw', async () => {
    const s = await open();
    const set = boxOf(s, 'sunglasses', [1, 2, 3]);
    const { client } = await s.shopper('verifier');
    const answer = await buy(client.post.bind(client));
    expect(answer.status).toBe(201);
    const { orderId } = await answer.json();
    const good = verifyDrawCli(s, orderId);
    expect(good.out).toContain('MATCH');
    expect(good.code).toBe(0);
    // The store pretends another item was drawn: the recomputation disagrees.
    const drawn = s.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).get()!.productId!;
    const other = set.products.find((p) => p.id !== drawn)!.id;
    s.db.update(mysteryDraws).set({ productId: other }).where(eq(mysteryDraws.orderId, orderId)).run();
    s.db.update(orderItems).set({ productId: other }).where(eq(orderItems.orderId, orderId)).run();
    const tampered = verifyDrawCli(s, orderId);
    expect(tampered.out).toContain('MISMATCH');
    expect(tampered.code).toBe(1);
    expect(verifyDrawCli(s, orderId + 100).code).toBe(2);
  });
});
