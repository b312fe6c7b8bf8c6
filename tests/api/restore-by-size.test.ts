import { describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { games, influencers, orders, teams } from '../../src/db/schema.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { backupDatabase } from '../../src/domain/operations/backups.ts';
import { reconcilePayments } from '../../src/domain/payments/reconcile.ts';
import { recommitAfterRestore } from '../../src/flows/recommit-seeds.ts';
import { restoreStore } from '../../src/flows/restore-store.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { squareStoresOfFile } from '../helpers/square-app.ts';
import { CHARGE, expectLedgerHolds, LIST, MINUTE } from '../helpers/sized-square.ts';
import { joinTeam, startTeam, teamOrders, teamProduct } from '../helpers/teams.ts';
import { ledgerBySize, sizedProduct, sizedTee, withSizes } from '../helpers/variants.ts';

/*
 * A backup taken while sized orders are in flight (issue 38 with the restore of issue 36): one M
 * paid, one M whose charge Square never took and one M whose charge Square took but whose answer
 * was lost. Restored, started and reconciled: the paid M stays sold, the lost answer's M is sold
 * (found under the key the backup kept), the never-taken M is back on the shelf; S and L untouched.
 */

const open = squareStoresOfFile();

describe('a restore with sized orders in flight', () => {
  test('after the restore and the reconciler, each size counts right and no sold M comes back', async () => {
    const s = await open();
    const tee = sizedTee(
      s.db,
      [
        { size: 'S', quantity: 2 },
        { size: 'M', quantity: 3 },
        { size: 'L', quantity: 1 },
      ],
      2200,
      s.clock.now(),
    );
    const before = ledgerBySize(s.db, tee.id);
    const buyM = async (name: string) => {
      const { client } = await s.shopper(name);
      const answer = await client.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant.M } });
      return { status: answer.status, orderId: s.db.select({ id: orders.id }).from(orders).all().at(-1)!.id };
    };
    const paid = await buyM('paid');
    expect(paid.status).toBe(201);
    s.fake.failNext({ status: 500 }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    const neverTaken = await buyM('never-taken');
    s.fake.failNext({ status: 500, afterProcessing: true }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    const lostAnswer = await buyM('lost-answer');
    expect([neverTaken.status, lostAnswer.status]).toEqual([502, 502]);
    expect(ledgerBySize(s.db, tee.id)).toEqual({ ...before, M: { stocked: 3, available: 0, held: 2, sold: 1 } });

    const dir = mkdtempSync(join(tmpdir(), 'csa-restore-size-'));
    const backup = join(dir, 'backups', 'store.db');
    backupDatabase(s.db, backup, join(dir, 'no-uploads'), s.clock.now());
    const restored = restoreStore(backup, join(dir, 'data'), { now: s.clock.now() });
    const db = await openMigratedDatabase(restored.database);
    const deps = { db, clock: s.clock, gateway: s.gateway, metrics: simulatedMetrics };
    await recommitAfterRestore(deps);
    expect(ledgerBySize(db, tee.id)).toEqual({ ...before, M: { stocked: 3, available: 0, held: 2, sold: 1 } });

    s.clock.advance(3 * MINUTE);
    await reconcilePayments(deps);
    const statusOf = (orderId: number) => db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()!.status;
    expect([statusOf(paid.orderId), statusOf(neverTaken.orderId), statusOf(lostAnswer.orderId)]).toEqual(['processing', 'failed', 'processing']);
    expect(ledgerBySize(db, tee.id)).toEqual({ ...before, M: { stocked: 3, available: 1, held: 0, sold: 2 } });
    expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(2);
    expectLedgerHolds({ db }, tee.id);
    // Later passes move nothing more.
    s.clock.advance(30 * MINUTE);
    await reconcilePayments(deps);
    expect(ledgerBySize(db, tee.id)).toEqual({ ...before, M: { stocked: 3, available: 1, held: 0, sold: 2 } });
    db.$client.close();
  });
});

describe('a restore with a game for M live at the backup', () => {
  test('the restored store voids the game and puts its M back; the other size never moves', async () => {
    const s = await open();
    const { productId, variants } = sizedProduct(s.db, { S: 1, M: 2 }, { brand: 'Restore Tee', priceCents: 200, playEnabled: true });
    const before = ledgerBySize(s.db, productId);
    const picks = s.db
      .select({ id: influencers.id })
      .from(influencers)
      .limit(10)
      .all()
      .map((i) => String(i.id));
    let gameId = 0;
    for (const [n, name] of ['ann', 'ben'].entries()) {
      const { client } = await s.shopper(name);
      const picked = await client.post('/api/plays', { json: { productId, variantId: variants.M, influencerIds: picks.slice(n * 5, n * 5 + 5) } });
      expect(picked.status).toBe(201);
      gameId = ((await picked.json()) as { gameId: number }).gameId;
      expect((await client.post('/api/payments', { json: { productId, variantId: variants.M, amount: 1, type: 'play' } })).status).toBe(201);
    }
    s.clock.advance(60 * MINUTE);
    await s.tick();
    expect(s.db.select({ status: games.status }).from(games).where(eq(games.id, gameId)).get()!.status).toBe('active');
    expect(ledgerBySize(s.db, productId)).toEqual({ ...before, M: { stocked: 2, available: 1, held: 1, sold: 0 } });

    const dir = mkdtempSync(join(tmpdir(), 'csa-restore-game-'));
    const backup = join(dir, 'backups', 'store.db');
    backupDatabase(s.db, backup, join(dir, 'no-uploads'), s.clock.now());
    const db = await openMigratedDatabase(restoreStore(backup, join(dir, 'data'), { now: s.clock.now() }).database);
    const deps = { db, clock: s.clock, gateway: s.gateway, metrics: simulatedMetrics };
    expect(await recommitAfterRestore(deps)).toMatchObject({ voided: [gameId] });
    await reconcilePayments(deps);
    expect(db.select({ status: games.status }).from(games).where(eq(games.id, gameId)).get()!.status).toBe('canceled');
    expect(ledgerBySize(db, productId)).toEqual(before);
    expectLedgerHolds({ db }, productId);
    db.$client.close();
  });
});

describe('a restore with a full team for M capturing at the backup', () => {
  test('the live store captured both after the backup: the restored store finishes the team too, two M sold once, no M back on the shelf', async () => {
    const s = await open();
    const productId = teamProduct(s, 5);
    const sizes = withSizes(s.db, productId, [
      { size: 'M', quantity: 3 },
      { size: 'L', quantity: 2 },
    ]);
    const before = ledgerBySize(s.db, productId);
    const alice = await s.shopper('alice');
    const bob = await s.shopper('bob');
    const started = await startTeam(alice.client, productId, { variantId: sizes.M });
    expect(started.status).toBe(201);
    for (let i = 0; i < 6; i++) s.fake.failNext({ status: 503 }, { method: 'POST', path: /\/complete$/ });
    expect((await joinTeam(bob.client, ((await started.json()) as { code: string }).code)).status).toBe(201);
    expect(s.fake.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
    expect(ledgerBySize(s.db, productId)).toEqual({ ...before, M: { stocked: 3, available: 1, held: 2, sold: 0 } });

    const dir = mkdtempSync(join(tmpdir(), 'csa-restore-team-'));
    const backup = join(dir, 'backups', 'store.db');
    backupDatabase(s.db, backup, join(dir, 'no-uploads'), s.clock.now());
    // The live store goes on: Square answers again and both holds are captured there.
    s.fake.reset();
    for (let i = 0; i < 3; i++) {
      s.clock.advance(5 * MINUTE);
      await s.tick();
    }
    expect(s.fake.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(ledgerBySize(s.db, productId)).toEqual({ ...before, M: { stocked: 3, available: 1, held: 0, sold: 2 } });

    const db = await openMigratedDatabase(restoreStore(backup, join(dir, 'data'), { now: s.clock.now() }).database);
    const deps = { db, clock: s.clock, gateway: s.gateway, metrics: simulatedMetrics };
    await recommitAfterRestore(deps);
    for (let i = 0; i < 3; i++) {
      s.clock.advance(5 * MINUTE);
      await reconcilePayments(deps);
    }
    expect(db.select({ status: teams.status }).from(teams).all()).toEqual([{ status: 'filled' }]);
    expect(ledgerBySize(db, productId)).toEqual({ ...before, M: { stocked: 3, available: 1, held: 0, sold: 2 } });
    expectLedgerHolds({ db }, productId);
    expect(teamOrders({ db }).map(({ item }) => item.sizeLabel)).toEqual(['M', 'M']);
    // Captured again under the same keys: still two payments taken once each.
    expect(s.fake.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    db.$client.close();
  });
});
