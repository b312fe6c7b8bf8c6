import { Hono } from 'hono';
import { formatDateTime } from '../../../../components/format.ts';
import { DomainError } from '../../../../domain/errors.ts';
import { productTypeLabels } from '../../../../domain/catalog/catalog.ts';
import { boxDrawsCsv, type BoxDrawRow, listBoxDraws } from '../../../../domain/promotions/mystery-admin.ts';
import { allBoxStates, type BoxState, boxName, compareSizes, setBoxPrice } from '../../../../domain/promotions/mystery-boxes.ts';
import type { AppContext, AppEnv } from '../../../../http/context.ts';
import { setFlash } from '../../../../http/flash.ts';
import { validForm } from '../../../../http/request.ts';
import { formatCents } from '../../../../shared/pricing.ts';
import { boxPriceForm } from '../../../../shared/schemas/mystery.ts';
import { chanceText } from '../../mystery-draw.tsx';

/*
 * The Promotions tab's mystery box section (issue 29, items 2 and 5): each type's box (its
 * status, the most it may cost, the price form, the exact odds, or a tee or shoe box's units in
 * each size, and the commitment), the latest
 * draws, and every draw as CSV. The price form works without JavaScript and calls the same
 * domain rule as PUT /api/admin/mystery-boxes/{type}.
 */

const DRAWS_SHOWN = 20;
const BACK = '/admin?tab=promotions#mystery-boxes';

const statusText: Record<BoxState['status'], string> = {
  on_sale: 'On sale',
  no_price: 'Not on sale: set a price',
  repricing: 'Paused: an item now costs less than the box. Set a price again.',
  empty: 'Nothing flagged in stock',
};

/** A box without sizes: each item's units and exact chance in the one draw. */
function OddsTable({ box }: { box: BoxState }) {
  const draw = box.draws[0];
  if (!draw) return null;
  return (
    <table className="mt-3 w-full border-collapse text-sm">
      <thead>
        <tr className="text-left text-slate-600">
          <th className="py-1 font-semibold">Item</th>
          <th className="py-1 text-right font-semibold">Price</th>
          <th className="py-1 text-right font-semibold">Chance</th>
        </tr>
      </thead>
      <tbody>
        {draw.items.map((item) => (
          <tr key={item.variantId} className="border-t border-slate-100">
            <td className="py-1 break-words">{`#${item.productId} ${item.name}`}</td>
            <td className="py-1 text-right">{formatCents(item.priceCents)}</td>
            <td className="py-1 text-right">{chanceText(item.units, draw.units)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A tee or shoe box: each item's units in each size (a size is drawn on its own, so what the
 * admin needs to see is which sizes run thin), and the units of each size in all.
 */
function UnitsBySize({ box }: { box: BoxState }) {
  const sizes = [...box.draws.map((draw) => draw.size), ...box.soldOutSizes].sort(compareSizes);
  const products = [...new Map(box.items.map((item) => [item.productId, item])).values()].sort((a, b) => a.productId - b.productId);
  const unitsOf = (productId: number, size: string) => box.items.find((item) => item.productId === productId && item.size === size)?.units ?? 0;
  const cell = 'py-1 pl-2 text-right tabular-nums';
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full border-collapse text-sm" data-units-by-size={box.type}>
        <caption className="pb-1 text-left text-slate-600">Units in each size (each size is drawn on its own)</caption>
        <thead>
          <tr className="text-left text-slate-600">
            <th className="py-1 font-semibold">Item</th>
            <th className="py-1 text-right font-semibold">Price</th>
            {sizes.map((size) => (
              <th key={size} scope="col" className={`${cell} font-semibold`}>
                {size}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {products.map((item) => (
            <tr key={item.productId} className="border-t border-slate-100">
              <td className="py-1 break-words">{`#${item.productId} ${item.label}`}</td>
              <td className="py-1 text-right">{formatCents(item.priceCents)}</td>
              {sizes.map((size) => (
                <td key={size} className={cell}>
                  {unitsOf(item.productId, size) || '-'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t border-slate-300 font-semibold">
            <th scope="row" className="py-1 text-left">
              Units in the size
            </th>
            <td />
            {sizes.map((size) => (
              <td key={size} className={cell} data-size-units={size}>
                {box.draws.find((draw) => draw.size === size)?.units ?? 0}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function BoxRow({ box }: { box: BoxState }) {
  return (
    <li className="border-t border-slate-100 py-4" data-admin-box={box.type}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="m-0 text-base font-bold">{boxName(box.type)}</h4>
        <span className={`text-sm font-semibold ${box.status === 'on_sale' ? 'text-sea-dark' : 'text-coral-dark'}`} data-box-status={box.status}>
          {statusText[box.status]}
        </span>
      </div>
      {box.items.length > 0 && (
        <>
          <form method="post" action={`/admin/promotions/boxes/${box.type}/price`} className="mt-2 flex flex-wrap items-end gap-2">
            <label className="grid gap-1 text-sm">
              <span className="font-semibold">{`Box price (at most ${formatCents(box.ceilingCents ?? 0)})`}</span>
              <input
                name="price"
                type="number"
                step="0.01"
                min="0.01"
                max={((box.ceilingCents ?? 0) / 100).toFixed(2)}
                defaultValue={box.priceCents === null ? '' : (box.priceCents / 100).toFixed(2)}
                required
                className="h-10 w-32 rounded-lg border border-slate-300 px-3"
              />
            </label>
            <button type="submit" className="h-10 rounded-lg bg-ink px-4 text-sm font-bold text-white cursor-pointer hover:bg-ink-light">
              Save price
            </button>
          </form>
          {box.bySize ? <UnitsBySize box={box} /> : <OddsTable box={box} />}
          {box.seedHash && <p className="m-0 mt-2 text-xs text-slate-600 break-all">{`Next draw's commitment: ${box.seedHash}`}</p>}
        </>
      )}
    </li>
  );
}

function DrawsList({ draws }: { draws: BoxDrawRow[] }) {
  if (draws.length === 0) return <p className="m-0 mt-2 text-sm text-slate-600">No box has been bought yet.</p>;
  return (
    <ul className="m-0 mt-2 grid list-none gap-2 p-0 text-sm">
      {draws.map((draw) => (
        <li key={draw.id} className="border-t border-slate-100 pt-2 break-words" data-draw={draw.orderId}>
          <a href={`/orders/${draw.orderId}`} className="font-semibold text-sea-dark">{`#${draw.orderId}`}</a>
          {` ${draw.productLabel}${draw.size ? `, size ${draw.size}` : ''}`}
          <span className="block text-slate-600">{`${draw.box} at ${formatCents(draw.priceCents)} · ${formatDateTime(draw.drawnAt)} · ${draw.orderStatus}`}</span>
        </li>
      ))}
    </ul>
  );
}

/** The section, as the Promotions tab shows it. */
export function MysteryBoxesSection<E extends AppEnv>({ c }: { c: AppContext<E> }) {
  const { db } = c.env.deps;
  const boxes = allBoxStates(db);
  return (
    <section id="mystery-boxes" aria-labelledby="mystery-boxes-title" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="mystery-boxes-title" className="m-0 text-lg font-bold">
          Mystery boxes
        </h3>
        <a href="/admin/promotions/boxes.csv" className="text-sm font-semibold text-sea-dark">
          Export draws (CSV)
        </a>
      </div>
      <p className="m-0 mt-1 text-sm text-slate-600">
        One box per product type, holding its products with Mystery box ticked and in stock. A box costs at most its cheapest item, so every box is worth what
        it costs.
      </p>
      <ul className="m-0 mt-2 list-none p-0">
        {boxes.map((box) => (
          <BoxRow key={box.type} box={box} />
        ))}
      </ul>
      <h4 className="m-0 mt-4 text-base font-bold">Latest draws</h4>
      <DrawsList draws={listBoxDraws(db, DRAWS_SHOWN)} />
    </section>
  );
}

/** The section's form post and CSV, behind the admin gate like every /admin route. */
export const mysteryBoxesAdmin = new Hono<AppEnv>()
  .post(
    '/admin/promotions/boxes/:type/price',
    validForm(boxPriceForm, 'Price not saved', () => BACK),
    (c) => {
      const type = c.req.param('type');
      try {
        const box = setBoxPrice(c.env.deps, c.get('user')!.id, type, Math.round(c.req.valid('form').price * 100));
        setFlash(c, { title: 'Box price saved', description: `${boxName(box.type)}: ${formatCents(box.priceCents ?? 0)}.` });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const label = type in productTypeLabels ? boxName(type as BoxState['type']) : 'Mystery box';
        setFlash(c, { title: `${label}: price not saved`, description: error.message, variant: 'destructive' });
      }
      return c.redirect(BACK, 303);
    },
  )
  .get('/admin/promotions/boxes.csv', (c) => {
    const day = new Date(c.env.deps.clock.now()).toISOString().slice(0, 10);
    return c.body(boxDrawsCsv(listBoxDraws(c.env.deps.db), formatDateTime), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="mystery-box-draws-${day}.csv"`,
      'Cache-Control': 'no-store',
    });
  });
