import { Hono } from 'hono';
import * as z from 'zod/mini';
import { DomainError } from '../../../domain/errors.ts';
import { liftStrike, STRIKES_TO_BLOCK, type StrikeRow, strikesForAdmin } from '../../../domain/auctions/strikes.ts';
import type { AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { renderPage } from '../../../http/render.tsx';
import { idFrom, pathId, validForm } from '../../../http/request.ts';
import { formText } from '../../../shared/schemas/fields.ts';
import { formatStoreDateTime } from '../../../shared/store-time.ts';

/*
 * Unpaid auctions on the admin's Auctions tab (issue 36): every strike, whose and for what, and
 * Lift strike, which asks first (as Mark Delivered does) and keeps who lifted it and when.
 */

const STRIKES_HREF = '/admin?tab=auctions#strikes';

const button = 'cursor-pointer whitespace-nowrap rounded-lg px-3 py-1.5 text-sm font-bold';

function StrikeItem({ strike, blocked }: { strike: StrikeRow; blocked: boolean }) {
  const state =
    strike.liftedAt !== null
      ? `Lifted by ${strike.liftedBy ?? 'an admin'}, ${formatStoreDateTime(strike.liftedAt)}`
      : strike.counting
        ? 'Counts'
        : 'Older than 12 months';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 py-3 last:border-0" data-strike-id={strike.id}>
      <div className="min-w-0 text-sm">
        <p className="m-0 font-bold break-words">
          {strike.username}
          {blocked && <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">Cannot bid</span>}
        </p>
        <p className="m-0 break-words text-slate-700">
          {'Did not pay for '}
          <a href={`/admin/products/${strike.productId}/auction?auction=${strike.auctionId}`} className="text-ink">
            {strike.label}
          </a>
          {` · ${formatStoreDateTime(strike.createdAt)} · `}
          <span data-strike-state>{state}</span>
        </p>
      </div>
      {strike.liftedAt === null && (
        <form method="post" action={`/admin/auction-strikes/${strike.id}/lift`} className="m-0">
          <button type="submit" className={`${button} border border-slate-300 bg-white text-ink hover:border-ink`}>
            Lift strike<span className="sr-only">{` of ${strike.username} for ${strike.label}`}</span>
          </button>
        </form>
      )}
    </li>
  );
}

/** The list under the Auctions tab's auctions. */
export function AuctionStrikes({ strikes }: { strikes: StrikeRow[] }) {
  const counting = new Map<number, number>();
  for (const strike of strikes) if (strike.counting) counting.set(strike.userId, (counting.get(strike.userId) ?? 0) + 1);
  return (
    <section id="strikes" aria-labelledby="strikes-title" className="mt-4 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="strikes-title" className="m-0 text-lg font-extrabold">
        Unpaid auctions
      </h2>
      <p className="m-0 mt-1 text-sm text-slate-600">
        A winner who does not pay in time gets a strike. Two that count (12 months, not lifted) and they cannot bid.
      </p>
      {strikes.length === 0 ? (
        <p className="m-0 py-6 text-center text-slate-600">No unpaid auctions.</p>
      ) : (
        <ul className="m-0 mt-2 list-none p-0">
          {strikes.map((strike) => (
            <StrikeItem key={strike.id} strike={strike} blocked={(counting.get(strike.userId) ?? 0) >= STRIKES_TO_BLOCK} />
          ))}
        </ul>
      )}
    </section>
  );
}

function LiftConfirm({ strike }: { strike: StrikeRow }) {
  return (
    <section aria-labelledby="confirm-title" className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-6">
      <h1 id="confirm-title" className="m-0 text-xl font-extrabold">{`Lift the strike on ${strike.username}?`}</h1>
      <p className="mt-3 text-sm text-slate-700">
        {`${strike.username} did not pay for ${strike.label} (${formatStoreDateTime(strike.createdAt)}). Lifted, it no longer counts toward the two unpaid auctions that stop them bidding. Your name and the time are kept with it.`}
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <a href={STRIKES_HREF} className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline">
          Keep Strike
        </a>
        <form method="post" action={`/admin/auction-strikes/${strike.id}/lift`}>
          <input type="hidden" name="confirmed" value="yes" />
          <button type="submit" className="cursor-pointer rounded-lg bg-ink px-4 py-2 text-sm font-bold text-white">
            Yes, Lift Strike
          </button>
        </form>
      </div>
    </section>
  );
}

const liftForm = z.object({ confirmed: formText(5) });

export const adminStrikePages = new Hono<AppEnv>().post(
  '/admin/auction-strikes/:id{[0-9]+}/lift',
  idFrom('Strike'),
  validForm(liftForm, 'Strike not lifted', () => STRIKES_HREF),
  (c) => {
    const { db, clock } = c.env.deps;
    const id = pathId(c);
    if (c.req.valid('form').confirmed !== 'yes') {
      // The list's button asks first: nothing changes until the admin confirms on this step.
      const [strike] = strikesForAdmin(db, clock.now(), { strikeId: id });
      if (!strike || strike.liftedAt !== null) {
        setFlash(c, { title: 'Strike not lifted', description: strike ? 'This strike was already lifted.' : 'Strike not found', variant: 'destructive' });
        return c.redirect(STRIKES_HREF, 303);
      }
      return renderPage(c, { title: 'Lift strike', path: '/admin', noindex: true }, <LiftConfirm strike={strike} />, { backHref: STRIKES_HREF });
    }
    try {
      liftStrike(db, clock, id, c.get('user')?.id ?? null);
      setFlash(c, { title: 'Strike lifted', description: 'It no longer counts toward the bidding limit.' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Strike not lifted', description: error.message, variant: 'destructive' });
    }
    return c.redirect(STRIKES_HREF, 303);
  },
);
