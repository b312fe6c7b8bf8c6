import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { formatDateTime } from '../../components/format.ts';
import { findProfile } from '../../domain/accounts/profile.ts';
import { cardLabel } from '../../domain/payments/card-config.ts';
import { BOX_REPRICING, type BoxDraw, type BoxState, boxName, compareSizes, shopBoxes } from '../../domain/promotions/mystery-boxes.ts';
import type { AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import { formatCents, totalsFor } from '../../shared/pricing.ts';
import { chanceText } from './mystery-draw.tsx';

/*
 * /mystery (issue 29, item 2): every box on sale, its price, what is in it with each item's exact
 * chance (per size for tee and shoe boxes, picked with a radio group: issue 38), the commitment its next draw is bound to, how to check a draw, and 'Buy Mystery Box'
 * (an island for a signed-in shopper; a visitor gets a sign-in link and no JavaScript).
 */

const code = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-xs break-all';

/** The radio group of a tee or shoe box's sizes: a GET form, so it works without JavaScript (?box=tshirt&size=M). */
function SizePicker({ box, chosen }: { box: BoxState; chosen: string | null }) {
  const sizes = [...box.draws.map((draw) => ({ size: draw.size, soldOut: false })), ...box.soldOutSizes.map((size) => ({ size, soldOut: true }))].sort((a, b) =>
    compareSizes(a.size, b.size),
  );
  return (
    <form method="get" action={`/mystery#box-${box.type}`} className="mt-4" data-size-picker={box.type}>
      <input type="hidden" name="box" value={box.type} />
      <fieldset className="m-0 border-0 p-0">
        <legend className="p-0 text-base font-bold">Your size</legend>
        <p className="m-0 mt-1 text-sm text-slate-600">The box is drawn from the units in your size only, so each size has its own odds.</p>
        <div className="mt-2 flex flex-wrap gap-2">
          {sizes.map(({ size, soldOut }) => (
            <label
              key={size}
              className={`relative inline-flex min-w-12 items-center justify-center rounded-lg border px-3 py-2 text-sm font-semibold has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-white has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sea-dark ${soldOut ? 'border-slate-200 text-slate-400 line-through' : 'cursor-pointer border-slate-300 bg-white'}`}
            >
              <input type="radio" name="size" value={size} defaultChecked={size === chosen} disabled={soldOut} required className="sr-only" />
              {size}
              {soldOut && <span className="sr-only"> (sold out)</span>}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="mt-3 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50">
        Show the odds in this size
      </button>
    </form>
  );
}

/** The items a draw picks from, each with its exact chance. */
function OddsTable({ draw }: { draw: BoxDraw }) {
  return (
    <table className="mt-2 w-full border-collapse text-sm" data-size-odds={draw.size}>
      <thead>
        <tr className="text-left text-slate-600">
          <th className="py-1 font-semibold">Item</th>
          <th className="py-1 text-right font-semibold">Worth</th>
          <th className="py-1 text-right font-semibold">Chance</th>
        </tr>
      </thead>
      <tbody>
        {draw.items.map((item) => (
          <tr key={item.variantId} className="border-t border-slate-100" data-odds={item.productId} data-variant={item.variantId}>
            <td className="py-1 break-words">
              <a href={`/product/${item.productId}${draw.size ? `?size=${encodeURIComponent(draw.size)}` : ''}`} className="font-semibold text-ink">
                {item.name}
              </a>
            </td>
            <td className="py-1 text-right">{formatCents(item.priceCents)}</td>
            <td className="py-1 text-right" data-chance={item.chance}>
              {chanceText(item.units, draw.units)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BoxCard({ box, signedIn, card, size }: { box: BoxState; signedIn: boolean; card: string | null; size: string | null }) {
  const name = boxName(box.type);
  const priceCents = box.priceCents ?? 0;
  const totals = totalsFor([{ priceCents, quantity: 1 }], 0);
  // A tee or shoe box shows (and sells) the size chosen; until then, only what it holds.
  const draw = box.bySize ? box.draws.find((candidate) => candidate.size.toLowerCase() === size?.toLowerCase()) : box.draws[0];
  const here = box.bySize && draw ? `/mystery?box=${box.type}&size=${encodeURIComponent(draw.size)}#box-${box.type}` : '/mystery';
  return (
    <section aria-labelledby={`box-${box.type}`} className="rounded-2xl border border-slate-200 bg-white p-5" data-box={box.type}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id={`box-${box.type}`} className="m-0 text-xl font-extrabold">
          {name}
        </h2>
        <p className="m-0 text-xl font-extrabold" data-box-price="">
          {formatCents(priceCents)}
        </p>
      </div>
      <p className="m-0 mt-1 text-sm text-slate-600">{`Every item in it costs at least ${formatCents(priceCents)} on its own. Plus 8% tax; free local delivery in Laguna Beach (92651).`}</p>
      {box.bySize && <SizePicker box={box} chosen={draw?.size ?? null} />}
      <h3 className="m-0 mt-4 text-base font-bold">{box.bySize && draw ? `What is in it in size ${draw.size}` : 'What is in it'}</h3>
      {draw ? (
        <OddsTable draw={draw} />
      ) : (
        <p className="m-0 mt-1 text-sm" data-choose-size="">
          {`${[...new Set(box.items.map((item) => item.label))].join(', ')}. Choose your size to see the odds in it.`}
        </p>
      )}
      <p className="m-0 mt-3 text-sm">
        {`Next draw's commitment (SHA-256 of its secret seed, published ${formatDateTime(box.seedCommittedAt ?? 0)}): `}
        <code className={code} data-seed-hash="">
          {box.seedHash}
        </code>
      </p>
      <div className="mt-4">
        {box.status !== 'on_sale' ? (
          <p className="m-0 text-sm font-semibold text-slate-600">{BOX_REPRICING}</p>
        ) : !draw ? (
          <p className="m-0 text-sm font-semibold text-slate-600">Choose your size to buy this box.</p>
        ) : signedIn ? (
          <Island
            name="BuyMysteryBox"
            props={{
              type: box.type,
              name,
              price: priceCents / 100,
              total: totals.totalCents / 100,
              seedHash: box.seedHash ?? '',
              card,
              ...(box.bySize ? { size: draw.size, back: here } : {}),
            }}
            mode="idle"
          />
        ) : (
          <a
            href={`/auth?next=${encodeURIComponent(here)}`}
            className="inline-block rounded-full bg-coral-dark px-5 py-2.5 text-sm font-bold text-white no-underline hover:bg-coral"
          >
            Sign in to buy
          </a>
        )}
      </div>
    </section>
  );
}

function HowItWorks() {
  return (
    <section aria-labelledby="box-fairness" className="rounded-2xl border border-slate-200 bg-white p-5 text-sm">
      <h2 id="box-fairness" className="m-0 text-lg font-bold">
        How the draw works, and how to check it
      </h2>
      <ol className="m-0 mt-2 grid gap-2 pl-5">
        <li>Each box has a secret seed. Its SHA-256 hash, shown above, is public before you buy, so the store cannot change the seed afterwards.</li>
        <li>
          Your draw is HMAC-SHA256 of your order number, keyed with that seed, read as a number; the remainder after dividing by the units in the box (in your
          size, for t-shirts and shoes) picks a unit. Items with more units in stock have exactly that much more chance, as the table says.
        </li>
        <li>The drawn unit is reserved in the same step as your order, so it cannot be sold twice.</li>
        <li>
          Your order page then reveals the seed, the stock it was drawn from and the commands to check it yourself. A seed draws once: the box moves to a new,
          freshly committed seed, so a revealed seed says nothing about the next draw.
        </li>
      </ol>
    </section>
  );
}

export const mysteryPages = new Hono<AppEnv>().get('/mystery', (c) => {
  const { db } = c.env.deps;
  const user = c.get('user');
  const profile = user ? findProfile(db, user.id) : undefined;
  const card = profile?.gatewayCardId ? cardLabel(profile.paymentMethod) : null;
  const boxes = shopBoxes(db);
  // One box's size at a time (?box=tshirt&size=M): a shoe's '10' is not a tee's.
  const sizeFor = (type: string) => (c.req.query('box') === type ? (c.req.query('size')?.trim() ?? null) : null);
  const page = renderPage(
    c,
    {
      title: 'Mystery Boxes',
      path: '/mystery',
      description:
        'Mystery boxes of designer sunglasses, t-shirts, shoes and books: every item worth at least the box price, exact odds, and a draw you can check.',
    },
    <div className="mx-auto grid max-w-3xl gap-5">
      <div>
        <h1 className="m-0 text-2xl font-extrabold">Mystery Boxes</h1>
        <p className="m-0 mt-1 text-slate-600">One surprise item for the price of the box: each is worth at least what you pay, with the odds shown exactly.</p>
      </div>
      {boxes.length === 0 ? (
        <p className="m-0 rounded-2xl border border-slate-200 bg-white p-5">No mystery boxes right now. Check back soon.</p>
      ) : (
        boxes.map((box) => <BoxCard key={box.type} box={box} signedIn={!!user} card={card} size={sizeFor(box.type)} />)
      )}
      <HowItWorks />
    </div>,
  );
  // The commitment changes with every purchase: never a stale copy.
  page.headers.set('Cache-Control', 'private, no-store');
  return page;
});
