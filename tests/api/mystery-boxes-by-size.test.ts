import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { mysteryDraws, orderItems, orders, type ProductType } from '../../src/db/schema.ts';
import { orderDrawView, verifyDraw } from '../../src/domain/promotions/mystery-audit.ts';
import { type ContentRow, drawFor, stateOf } from '../../src/domain/promotions/mystery-boxes.ts';
import { drawProduct } from '../../src/domain/promotions/mystery-draw.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { adminWithPin, quickShopper } from '../helpers/actors.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { type BoxView, boxOf, drawsOf, seedsOf, sizedBoxOf, variantUnits } from '../helpers/boxes.ts';
import { all, allIslandProps, attribute, attributes, count, text, textOf } from '../helpers/html.ts';

/*
 * Issue 38: a tee or shoe mystery box is bought in a size, the draw is over that size's units
 * (listed by variant id), and the odds are published per size on /mystery and by the API. A
 * draw from before sizes (its stock listed by product id) still verifies.
 */

const boxes = async (ctx: TestApp) => (await (await ctx.client().get('/api/mystery-boxes')).json()) as BoxView[];
const buy = (client: ReturnType<TestApp['client']>, json: unknown, type = 'tshirt') =>
  client.post(`/api/mystery-boxes/${type}/orders`, { json, headers: { 'idempotency-key': crypto.randomUUID() } });

/** Three tees in S, M and L (XL only sold out): 4 units of M in all. */
function teeBox(ctx: TestApp) {
  return sizedBoxOf(ctx, 'tshirt', [
    [
      ['S', 2],
      ['M', 1],
      ['L', 3],
      ['XL', 0],
    ],
    [
      ['S', 1],
      ['M', 2],
      ['L', 0],
    ],
    [
      ['M', 1],
      ['L', 1],
    ],
  ]);
}

const variantIds = (set: ReturnType<typeof teeBox>) => set.products.flatMap((product) => Object.entries(product.variants));

describe('buying a tee box in a size', () => {
  test('in M the draw is over the M units only: one M unit gone, every other size as it was; the line, the draw and the order page name M', async () => {
    const ctx = await seededApp();
    const set = teeBox(ctx);
    const all = variantIds(set);
    const before = variantUnits(
      ctx,
      all.map(([, id]) => id),
    );
    const { client } = quickShopper(ctx, 'teebuyer');
    const seen = (await boxes(ctx)).find((box) => box.type === 'tshirt')!;
    const answer = await buy(client, { size: 'M', seedHash: seen.seedHash, price: seen.price });
    expect(answer.status).toBe(201);
    const { orderId } = await answer.json();

    const line = ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).get()!;
    const mIds = all.filter(([size]) => size === 'M').map(([, id]) => id);
    expect(mIds).toContain(line.variantId!);
    expect(line.sizeLabel).toBe('M');
    const after = variantUnits(
      ctx,
      all.map(([, id]) => id),
    );
    for (const [, id] of all) expect([id, after.get(id)]).toEqual([id, before.get(id)! - (id === line.variantId ? 1 : 0)]);

    const [draw] = drawsOf(ctx, orderId);
    expect(draw!.size).toBe('M');
    expect(draw!.variantId).toBe(line.variantId);
    expect(draw!.productId).toBe(line.productId);
    // The draw's whole input: the M variants with their units, by variant id.
    expect(JSON.parse(draw!.stock)).toEqual({ variants: mIds.sort((a, b) => a - b).map((id) => [id, before.get(id)]) });
    expect(verifyDraw(ctx.db, orderId).ok).toBe(true);

    const view = orderDrawView(ctx.db, orderId)!;
    expect(view.size).toBe('M');
    expect(view.stock.map((row) => row.id)).toEqual(mIds);
    expect(view.stock.every((row) => row.label.endsWith('size M'))).toBe(true);
    const page = await (await client.get(`/orders/${orderId}`)).text();
    expect(text(page, '[data-drawn-size]')).toBe('M');
    expect(attributes(page, '[data-tickets]', 'data-tickets')).toEqual(mIds.map(String));
  });

  test('no size, a size with no units, or one the box does not hold: 400 naming the sizes on offer, nothing written', async () => {
    const ctx = await seededApp();
    const set = teeBox(ctx);
    const ids = variantIds(set).map(([, id]) => id);
    const { client } = quickShopper(ctx, 'teepicky');
    const snapshot = () => ({
      orders: ctx.db.select().from(orders).all().length,
      draws: drawsOf(ctx).length,
      seeds: seedsOf(ctx, 'tshirt').map((seed) => [seed.id, seed.usedAt]),
      units: [...variantUnits(ctx, ids)],
      charges: ctx.gateway.payments().length,
    });
    const before = snapshot();
    for (const json of [{}, { size: 'XL' }, { size: '10' }, { size: '' }]) {
      const answer = await buy(client, json);
      const body = await answer.json();
      expect([json, answer.status]).toEqual([json, 400]);
      expect(body.message).toBe('Choose a size: S, M or L.');
      expect(body.fields.size).toBe('Choose a size: S, M or L.');
    }
    expect((await buy(client, { size: 7 })).status).toBe(400);
    // A box without sizes takes none.
    boxOf(ctx, 'sunglasses', [1, 1]);
    const sized = await buy(client, { size: 'M' }, 'sunglasses');
    expect(sized.status).toBe(400);
    expect((await sized.json()).fields.size).toContain('comes in no sizes');
    expect(snapshot()).toEqual(before);
  });
});

describe('the last unit of a size', () => {
  test('bought by two shoppers at once: sold once; the other is refused naming the sizes still on offer, nothing written for it', async () => {
    const ctx = await seededApp();
    const set = sizedBoxOf(ctx, 'tshirt', [
      [
        ['S', 1],
        ['M', 1],
      ],
      [['L', 2]],
    ]);
    const one = quickShopper(ctx, 'firstm');
    const two = quickShopper(ctx, 'secondm');
    const answers = await Promise.all([buy(one.client, { size: 'M' }), buy(two.client, { size: 'M' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    expect((await answers.find((a) => a.status === 400)!.json()).fields.size).toBe('Choose a size: S or L.');
    expect(variantUnits(ctx, [set.products[0]!.variants.M!]).get(set.products[0]!.variants.M!)).toBe(0);
    expect(ctx.db.select().from(orders).all()).toHaveLength(1);
    expect(ctx.gateway.payments()).toHaveLength(1);
    expect(drawsOf(ctx)).toHaveLength(1);
    expect(seedsOf(ctx, 'tshirt')).toHaveLength(2);
  });
});

describe('the odds, per size', () => {
  test('the API lists each size on offer with odds adding up to 1, the sold-out size apart, and no whole-box odds for a box drawn by size', async () => {
    const ctx = await seededApp();
    teeBox(ctx);
    const tee = (await boxes(ctx)).find((box) => box.type === 'tshirt')!;
    expect(tee.sizeRequired).toBe(true);
    expect(tee.odds).toBeUndefined();
    expect(tee.sizes.map((size) => [size.size, size.units])).toEqual([
      ['S', 3],
      ['M', 4],
      ['L', 4],
    ]);
    expect(tee.soldOutSizes).toEqual(['XL']);
    for (const size of tee.sizes) {
      expect(size.odds.reduce((sum, line) => sum + line.chance, 0)).toBeCloseTo(1, 12);
      expect(size.odds.every((line) => line.size === size.size && line.units > 0)).toBe(true);
    }
    // In the draw's order, by variant id: the second tee's M was added after the third tee was made.
    expect(tee.sizes[1]!.odds.map((line) => line.chance)).toEqual([0.25, 0.25, 0.5]);
  });

  test('/mystery: a radio group of sizes (sold out disabled) in a GET form; ?size=M shows the odds of M adding up to 1 and sells M', async () => {
    const ctx = await seededApp();
    teeBox(ctx);
    const { client } = quickShopper(ctx, 'teelooker');
    const api = (await boxes(ctx)).find((box) => box.type === 'tshirt')!;
    const first = await (await client.get('/mystery')).text();
    expect(attributes(first, '[data-size-picker="tshirt"] input[type="radio"][name="size"]', 'value')).toEqual(['S', 'M', 'L', 'XL']);
    expect(attributes(first, '[data-size-picker="tshirt"] input[disabled]', 'value')).toEqual(['XL']);
    expect(attribute(first, '[data-size-picker="tshirt"]', 'method')).toBe('get');
    // No size chosen yet: no odds and nothing to buy.
    expect(count(first, '[data-box="tshirt"] [data-chance]')).toBe(0);
    expect(count(first, '[data-island="BuyMysteryBox"]')).toBe(0);
    for (const size of api.sizes) {
      const page = await (await client.get(`/mystery?box=tshirt&size=${size.size}`)).text();
      expect(attribute(page, '[data-size-picker="tshirt"] input[checked]', 'value')).toBe(size.size);
      const chances = attributes(page, `[data-size-odds="${size.size}"] [data-chance]`, 'data-chance').map(Number);
      expect(chances).toEqual(size.odds.map((line) => line.chance));
      expect(chances.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      const [props] = allIslandProps<{ size: string; back: string }>(page, 'BuyMysteryBox');
      expect(props!.size).toBe(size.size);
      expect(props!.back).toBe(`/mystery?box=tshirt&size=${size.size}#box-tshirt`);
    }
    const m = await (await ctx.client().get('/mystery?box=tshirt&size=M')).text();
    expect(all(m, '[data-box="tshirt"] [data-chance]').map(textOf)).toEqual(['1 of 4 (25%)', '1 of 4 (25%)', '2 of 4 (50%)']);
  });
});

describe("the admin's box", () => {
  test("the Promotions tab shows each tee's units in each size and each size's units in all; a draw lists its size", async () => {
    const ctx = await seededApp();
    teeBox(ctx);
    const admin = await adminWithPin(ctx);
    const tab = await (await admin.get('/admin?tab=promotions')).text();
    const table = '[data-units-by-size="tshirt"]';
    expect(all(tab, `${table} thead th`).map(textOf)).toEqual(['Item', 'Price', 'S', 'M', 'L', 'XL']);
    expect(all(tab, `${table} tbody tr`).map((row) => [...row.querySelectorAll('td')].slice(2).map(textOf))).toEqual([
      ['2', '1', '3', '-'],
      ['1', '2', '-', '-'],
      ['-', '1', '1', '-'],
    ]);
    expect(attributes(tab, `${table} [data-size-units]`, 'data-size-units')).toEqual(['S', 'M', 'L', 'XL']);
    expect(all(tab, `${table} [data-size-units]`).map(textOf)).toEqual(['3', '4', '4', '0']);
    const { client } = quickShopper(ctx, 'teeadmin');
    const { orderId } = await (await buy(client, { size: 'L' })).json();
    const after = await (await admin.get('/admin?tab=promotions')).text();
    expect(text(after, `[data-draw="${orderId}"]`)).toContain('size L');
  });
});

describe('a draw from before sizes', () => {
  test('its stock listed by product id still verifies (MATCH), and a tampered one does not', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1, 3, 4]);
    const { client } = quickShopper(ctx, 'oldbuyer');
    const { orderId } = await (await buy(client, {}, 'sunglasses')).json();
    // Rewrite it as the store wrote draws before issue 38: [productId, units] and the product drawn.
    const seed = ctx.db.select().from(mysteryDraws).where(eq(mysteryDraws.orderId, orderId)).get()!;
    const stock: [number, number][] = set.products.map((product) => [product.id, product.quantity]);
    const revealed = orderDrawView(ctx.db, orderId)!.seed!;
    const productId = drawProduct(revealed, orderId, stock)!;
    ctx.db
      .update(mysteryDraws)
      .set({ stock: JSON.stringify(stock), productId, size: '' })
      .where(eq(mysteryDraws.id, seed.id))
      .run();
    ctx.db.update(orderItems).set({ productId }).where(eq(orderItems.orderId, orderId)).run();

    const checked = verifyDraw(ctx.db, orderId);
    expect(checked.lines.at(-1)).toStartWith('MATCH');
    expect(checked.lines.join('\n')).toContain(`draws product #${productId}`);
    const view = orderDrawView(ctx.db, orderId)!;
    expect(view.stockBy).toBe('product');
    expect(view.drawnId).toBe(productId);
    expect(view.stock.map((line) => line.id)).toEqual(set.products.map((product) => product.id));

    const other = set.products.find((product) => product.id !== productId)!.id;
    ctx.db.update(mysteryDraws).set({ productId: other }).where(eq(mysteryDraws.id, seed.id)).run();
    expect(verifyDraw(ctx.db, orderId).ok).toBe(false);
  });
});

describe('the draw by size (property)', () => {
  const SIZES = ['S', 'M', 'L', 'XL'];
  test('never picks a variant with no units or of another size, whatever the seed, order and stock', () => {
    const rows = fc
      .array(fc.record({ product: fc.integer({ min: 1, max: 5 }), size: fc.constantFrom(...SIZES), units: fc.nat({ max: 4 }) }), {
        minLength: 1,
        maxLength: 16,
      })
      .map((lines) =>
        lines.map(
          (line, i): ContentRow => ({
            variantId: 1000 + i * 7,
            productId: line.product,
            productType: 'tshirt',
            brand: 'Brand',
            name: `Tee ${line.product}`,
            model: `T${line.product}`,
            priceCents: 5_000,
            size: line.size,
            quantity: line.units,
          }),
        ),
      );
    fc.assert(
      fc.property(
        rows,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.constantFrom(...SIZES),
        (lines, bytes, orderId, wanted) => {
          const box = stateOf('tshirt' as ProductType, lines, 4_000, { seedHash: 'x', committedAt: 0 });
          const offered = SIZES.filter((size) => lines.some((line) => line.size === size && line.quantity > 0));
          expect(box.draws.map((draw) => draw.size)).toEqual(offered);
          if (!offered.includes(wanted)) {
            expect(() => drawFor(box, wanted)).toThrow(DomainError);
            return;
          }
          const draw = drawFor(box, wanted);
          expect(draw.items.reduce((sum, item) => sum + item.chance, 0)).toBeCloseTo(1, 12);
          const drawn = drawProduct(Buffer.from(bytes).toString('hex'), orderId, draw.stock);
          const row = lines.find((line) => line.variantId === drawn)!;
          expect(row.size).toBe(wanted);
          expect(row.quantity).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
