import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { type Db, openMigratedDatabase } from '../../src/db/client.ts';
import { products, type ReservationReason, type ReservationState } from '../../src/db/schema.ts';
import { DomainError } from '../../src/domain/errors.ts';
import {
  attachOrder,
  markSold,
  owners,
  release,
  releaseOrder,
  reserve,
  returnOrder,
  sellOrder,
  setAvailable,
  stockOf,
} from '../../src/domain/inventory/stock.ts';
import { propertyRuns } from '../helpers/property-runs.ts';
import { soleVariantId } from '../helpers/variants.ts';

/*
 * The stock ledger under random interleavings of every way to hold and give back stock, each
 * step made with the calls (and in the transactions) its area makes: a buy-now or cart order
 * placed (card or cash), then paid, failed, paid twice (a request and the reconciler), canceled
 * or refunded; a team place taken, released, sold to its member's order; an auction's unit held,
 * released, attached to its buyer's order; a prize reserved at a game's start, released (game
 * canceled, prize expired), donated or bought through an order; a mystery box's draw; and the
 * admin's stock edit with the count they saw, fresh or stale.
 *
 * After every step, for every product: stocked = available + held + sold, available >= 0, each
 * reservation is in the state a plain model says, and a purchase sells its units once (a second
 * sale, release or return of the same thing moves nothing).
 */

// 100 runs (about 3,750 steps) find the sellOrder miscount this test was written for every time
// (it shows in 50); PROPERTY_RUNS_FACTOR=2 gives the 200 runs it had before issue 35.
const RUNS = propertyRuns(100);
const MIN_STEPS = 20;
const MAX_STEPS = 60;

type Res = { productId: number; quantity: number; reason: ReservationReason; owner: string; orderId: number | null; state: ReservationState };

/** What the ledger should hold: the model the SQL is checked against. */
class Model {
  stocked = new Map<number, number>();
  reservations: Res[] = [];

  constructor(
    readonly ids: number[],
    initial: number[],
  ) {
    for (const [i, id] of ids.entries()) this.stocked.set(id, initial[i]!);
  }
  sum(productId: number, state: ReservationState) {
    return this.reservations.filter((r) => r.productId === productId && r.state === state).reduce((n, r) => n + r.quantity, 0);
  }
  available(productId: number) {
    return this.stocked.get(productId)! - this.sum(productId, 'held') - this.sum(productId, 'sold');
  }
  private move(match: (r: Res) => boolean, to: ReservationState, set: Partial<Res> = {}) {
    let units = 0;
    for (const r of this.reservations.filter(match)) {
      Object.assign(r, { state: to }, set);
      units += r.quantity;
    }
    return units;
  }
  reserve(hold: Omit<Res, 'state' | 'orderId'> & { orderId?: number }) {
    if (this.available(hold.productId) < hold.quantity) return false;
    this.reservations.push({ ...hold, orderId: hold.orderId ?? null, state: 'held' });
    return true;
  }
  release(owner: string) {
    return this.move((r) => r.owner === owner && r.state === 'held', 'released');
  }
  markSold(owner: string, orderId?: number) {
    return this.move((r) => r.owner === owner && r.state === 'held', 'sold', orderId === undefined ? {} : { orderId });
  }
  attach(owner: string, orderId: number) {
    for (const r of this.reservations) if (r.owner === owner && r.state === 'held') r.orderId = orderId;
  }
  sellOrder(orderId: number) {
    return this.markSold(owners.order(orderId), orderId) + this.move((r) => r.orderId === orderId && r.state === 'held', 'sold');
  }
  releaseOrder(orderId: number) {
    const units = this.release(owners.order(orderId));
    for (const r of this.reservations) if (r.orderId === orderId && r.state === 'held') r.orderId = null;
    return units;
  }
  returnOrder(orderId: number, keep: ReservationReason[]) {
    return this.move((r) => r.orderId === orderId && r.state === 'sold' && !keep.includes(r.reason), 'returned');
  }
}

const STEP_KINDS = [
  'order',
  'cart',
  'box',
  'pay',
  'fail',
  'refund',
  'teamTake',
  'teamRelease',
  'teamSold',
  'auctionHold',
  'auctionRelease',
  'auctionOrder',
  'prizeReserve',
  'prizeRelease',
  'prizeDonate',
  'prizeOrder',
  'adminEdit',
] as const;
type Step = { kind: (typeof STEP_KINDS)[number]; product: number; pick: number; quantity: number; value: number; stale: boolean; cod: boolean };

const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...STEP_KINDS),
  product: fc.nat(1),
  pick: fc.nat(50),
  quantity: fc.integer({ min: 1, max: 3 }),
  value: fc.nat(12),
  stale: fc.boolean(),
  cod: fc.boolean(),
});

let db: Db;
let serial = 0;
const totals = { runs: 0, steps: 0, refusals: 0, conflicts: 0, sold: 0 };

beforeAll(async () => {
  db = await openMigratedDatabase();
});
afterAll(() => {
  console.log(
    `stock ledger property: ${totals.runs} runs, ${totals.steps} steps (${totals.refusals} sold-out refusals, ${totals.conflicts} stale edits refused, ${totals.sold} units sold)`,
  );
});

/** One run: two fresh products, the steps made through the ledger and the model side by side. */
function run(initial: number[], steps: Step[]) {
  const now = 1_800_000_000_000;
  const ids = initial.map(
    (quantity) =>
      db
        .insert(products)
        .values({ brand: 'Ledger', model: `L-${++serial}`, quantity, priceCents: 1000, createdAt: now })
        .returning()
        .get().id,
  );
  const model = new Model(ids, initial);
  const orders: number[] = [];
  const teamPlaces: string[] = [];
  const auctions: string[] = [];
  const prizes: string[] = [];
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  const seenBefore: number[] = [...initial];

  for (const step of steps) {
    const productId = ids[step.product]!;
    const units: { db: number | boolean; model: number | boolean }[] = [];
    const both = (dbUnits: number | boolean, modelUnits: number | boolean) => units.push({ db: dbUnits, model: modelUnits });
    switch (step.kind) {
      case 'order':
      case 'cart':
      case 'box': {
        // orders.ts claimCheckout: every line or none (a sold-out line rolls the claim back).
        const orderId = 10_000 + ++serial;
        const lines =
          step.kind === 'cart'
            ? ids.map((id, i) => ({ id, quantity: i === 0 ? step.quantity : 1 }))
            : [{ id: productId, quantity: step.kind === 'box' ? 1 : step.quantity }];
        const reason = step.kind === 'box' ? 'box_draw' : 'order_line';
        const modelFits = lines.every((line) => model.available(line.id) >= line.quantity);
        let placed = true;
        try {
          db.transaction((tx) => {
            for (const line of lines) {
              if (
                !reserve(tx, {
                  productId: line.id,
                  variantId: soleVariantId(tx, line.id),
                  quantity: line.quantity,
                  reason,
                  owner: owners.order(orderId),
                  orderId,
                  now,
                })
              )
                throw new Error('sold out');
            }
            if (step.cod) sellOrder(tx, orderId, now);
          });
        } catch {
          placed = false;
          totals.refusals++;
        }
        expect(placed).toBe(modelFits);
        if (placed) {
          for (const line of lines) model.reserve({ productId: line.id, quantity: line.quantity, reason, owner: owners.order(orderId), orderId });
          if (step.cod) model.sellOrder(orderId);
          orders.push(orderId);
        }
        break;
      }
      case 'pay': {
        const orderId = pick(orders, step.pick);
        if (orderId !== undefined) both(sellOrder(db, orderId, now), model.sellOrder(orderId));
        break;
      }
      case 'fail': {
        const orderId = pick(orders, step.pick);
        if (orderId !== undefined) both(releaseOrder(db, orderId, now), model.releaseOrder(orderId));
        break;
      }
      case 'refund': {
        const orderId = pick(orders, step.pick);
        if (orderId !== undefined) both(returnOrder(db, orderId, now, ['prize']), model.returnOrder(orderId, ['prize']));
        break;
      }
      case 'teamTake':
      case 'auctionHold':
      case 'prizeReserve': {
        const id = ++serial;
        const [owner, reason, list] =
          step.kind === 'teamTake'
            ? [owners.teamMember(id), 'team_place' as const, teamPlaces]
            : step.kind === 'auctionHold'
              ? [owners.auction(id), 'auction' as const, auctions]
              : [owners.game(id), 'prize' as const, prizes];
        const taken = reserve(db, { productId, variantId: soleVariantId(db, productId), quantity: 1, reason, owner, now });
        both(taken, model.reserve({ productId, quantity: 1, reason, owner }));
        if (taken) list.push(owner);
        else totals.refusals++;
        break;
      }
      case 'teamRelease':
      case 'auctionRelease':
      case 'prizeRelease': {
        const owner = pick(step.kind === 'teamRelease' ? teamPlaces : step.kind === 'auctionRelease' ? auctions : prizes, step.pick);
        if (owner) both(release(db, owner, now), model.release(owner));
        break;
      }
      case 'teamSold': {
        // teams-fill.ts: the member's own order, paid by the captured hold, sells the place's unit.
        const owner = pick(teamPlaces, step.pick);
        if (!owner) break;
        const orderId = 10_000 + ++serial;
        both(markSold(db, owner, now, orderId), model.markSold(owner, orderId));
        orders.push(orderId);
        break;
      }
      case 'prizeDonate': {
        const owner = pick(prizes, step.pick);
        if (owner) both(markSold(db, owner, now), model.markSold(owner));
        break;
      }
      case 'auctionOrder':
      case 'prizeOrder': {
        // orders.ts writeLines: a held line's unit is attached to the buyer's order, which then pays or fails.
        const owner = pick(step.kind === 'auctionOrder' ? auctions : prizes, step.pick);
        if (!owner) break;
        const orderId = 10_000 + ++serial;
        attachOrder(db, owner, orderId, now);
        model.attach(owner, orderId);
        orders.push(orderId);
        break;
      }
      case 'adminEdit': {
        // The admin's form: the count they saw, now or from an earlier step; their new count.
        const current = model.available(productId);
        const seen = step.stale ? seenBefore[step.product]! : current;
        const expected = step.value === seen ? 'same' : seen === current ? 'moved' : 'conflict';
        let outcome: string = step.value === seen ? 'same' : 'moved';
        try {
          db.transaction((tx) => setAvailable(tx, soleVariantId(tx, productId), { quantity: step.value, seen, now }));
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).status).toBe(409);
          expect((error as DomainError).message).toBe(`Stock changed since you opened this form: now ${current}`);
          outcome = 'conflict';
          totals.conflicts++;
        }
        expect(outcome).toBe(expected);
        if (outcome === 'moved') model.stocked.set(productId, model.stocked.get(productId)! + step.value - seen);
        break;
      }
    }
    for (const { db: got, model: want } of units) expect(got).toBe(want);
    seenBefore[step.product] = step.stale ? seenBefore[step.product]! : model.available(productId);
    totals.steps++;

    for (const id of ids) {
      const ledger = stockOf(db, id)!;
      expect(ledger.stocked).toBe(ledger.available + ledger.held + ledger.sold);
      expect(ledger.available).toBeGreaterThanOrEqual(0);
      expect(ledger).toEqual({ stocked: model.stocked.get(id)!, available: model.available(id), held: model.sum(id, 'held'), sold: model.sum(id, 'sold') });
    }
  }
  totals.sold += ids.reduce((n, id) => n + model.sum(id, 'sold'), 0);
  totals.runs++;
}

describe('the stock ledger, property', () => {
  test(`stocked = available + held + sold after every step of ${RUNS} random interleavings`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(4), { minLength: 2, maxLength: 2 }),
        fc.array(stepArb, { minLength: MIN_STEPS, maxLength: MAX_STEPS, size: 'max' }),
        (initial, steps) => run(initial, steps),
      ),
      { numRuns: RUNS, ...(process.env.LEDGER_SEED ? { seed: Number(process.env.LEDGER_SEED), path: process.env.LEDGER_PATH, endOnFailure: true } : {}) },
    );
    expect(totals.runs).toBeGreaterThanOrEqual(RUNS);
    expect(totals.sold).toBeGreaterThan(0);
    expect(totals.conflicts).toBeGreaterThan(0);
  }, 120_000);
});
