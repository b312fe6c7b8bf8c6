import { Hono } from 'hono';
import { formatDateTime } from '../../../../components/format.ts';
import type { CharityPartner } from '../../../../config.ts';
import { DomainError } from '../../../../domain/errors.ts';
import {
  type DonationRow,
  DONATIONS_EXPORTED,
  DONATIONS_SHOWN,
  donationsCsv,
  listDonations,
  markPrizeHandedOver,
} from '../../../../domain/promotions/donations-admin.ts';
import type { AppDeps, AppEnv } from '../../../../http/context.ts';
import { setFlash } from '../../../../http/flash.ts';
import { idFrom, pathId } from '../../../../http/request.ts';
import { formatDollars } from '../../../../shared/money.ts';

/*
 * The Promotions tab's Donations section (issue 29): purchases made with 'Donate this' and the
 * prizes winners gave to charity, in one list with whether each was handed over, a CSV export,
 * and 'Mark handed over' for a prize (a purchase is handed over from the Orders tab, where its
 * order is marked like any delivery). Mounted behind the admin gate in admin/index.tsx.
 */

export interface DonationsData {
  rows: DonationRow[];
  charity: CharityPartner | null;
}

export const donationsData = (deps: Pick<AppDeps, 'db' | 'config'>): DonationsData => ({
  rows: listDonations(deps.db, deps.config.charity?.name ?? null),
  charity: deps.config.charity,
});

function HandOver({ row }: { row: DonationRow }) {
  if (row.handedOverAt !== null) return <span className="text-emerald-800">{`Yes, ${formatDateTime(row.handedOverAt)}`}</span>;
  if (row.kind === 'purchase')
    return (
      <a href="/admin?tab=orders&donations=1" className="font-semibold text-sea-dark">
        Not yet: on the Orders tab<span className="sr-only">{` (order #${row.id})`}</span>
      </a>
    );
  return (
    <form method="post" action={`/admin/promotions/donations/prizes/${row.id}/handed-over`} className="m-0">
      <span className="mr-2">Not yet</span>
      <button type="submit" className="cursor-pointer rounded-lg bg-emerald-700 px-2.5 py-1 text-xs font-bold text-white hover:bg-emerald-800">
        Mark handed over<span className="sr-only">{` (prize of game #${row.id})`}</span>
      </button>
    </form>
  );
}

export function DonationsSection({ data }: { data: DonationsData }) {
  const { rows, charity } = data;
  return (
    <section aria-labelledby="donations-title" data-section="donations" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="donations-title" className="m-0 text-lg font-bold">
          Donations
        </h2>
        <a href="/admin/promotions/donations.csv" className="text-sm font-semibold text-sea-dark" download>
          Export CSV
        </a>
      </div>
      <p className="m-0 mt-1 text-sm text-slate-600">
        {charity
          ? `Bought with 'Donate this' and prizes winners donated, to hand over to ${charity.name}, ${charity.address}.`
          : 'No charity partner is set up (CHARITY_NAME, CHARITY_ADDRESS): no product offers Donate.'}
      </p>
      {rows.length === 0 ? (
        <p className="m-0 py-6 text-center text-slate-600">No donations yet.</p>
      ) : (
        <div
          className="relative mt-3 overflow-x-auto"
          role="region"
          aria-label="Donations"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1).
          tabIndex={0}
        >
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="border-b border-slate-200 py-2 pr-3">Date</th>
                <th className="border-b border-slate-200 py-2 pr-3">Product</th>
                <th className="border-b border-slate-200 py-2 pr-3">Donor</th>
                <th className="border-b border-slate-200 py-2 pr-3 text-right">Amount</th>
                <th className="border-b border-slate-200 py-2">Handed over?</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.kind}-${row.id}`} data-donation={`${row.kind}-${row.id}`}>
                  <td className="border-b border-slate-100 py-2 pr-3 whitespace-nowrap">{formatDateTime(row.at)}</td>
                  <td className="border-b border-slate-100 py-2 pr-3">
                    {row.kind === 'purchase' ? (
                      <a href={`/admin?tab=orders&donations=1#order-${row.id}`} className="text-ink">{`Order #${row.id}`}</a>
                    ) : (
                      <a href={`/games/${row.id}`} className="text-ink">{`Game #${row.id}`}</a>
                    )}
                    {` · ${row.product}`}
                  </td>
                  <td className="border-b border-slate-100 py-2 pr-3">{row.donor}</td>
                  <td className="border-b border-slate-100 py-2 pr-3 text-right tabular-nums">{formatDollars(row.amount)}</td>
                  <td className="border-b border-slate-100 py-2">
                    <HandOver row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length >= DONATIONS_SHOWN && (
            <p className="m-0 mt-3 text-center text-sm text-slate-600">{`Showing the newest ${DONATIONS_SHOWN}; the CSV has up to ${DONATIONS_EXPORTED}.`}</p>
          )}
          <p className="m-0 mt-3 text-xs text-slate-600">A purchase's amount is what the donor paid; a prize's is the product's price.</p>
        </div>
      )}
    </section>
  );
}

export const adminDonations = new Hono<AppEnv>()
  .get('/admin/promotions/donations.csv', (c) => {
    const { db, config, clock } = c.env.deps;
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    return c.body(donationsCsv(listDonations(db, config.charity?.name ?? null, DONATIONS_EXPORTED), formatDateTime), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="donations-${day}.csv"`,
      'Cache-Control': 'no-store',
    });
  })
  .post('/admin/promotions/donations/prizes/:id{[0-9]+}/handed-over', idFrom('Game'), (c) => {
    try {
      markPrizeHandedOver(c.env.deps, pathId(c));
      setFlash(c, { title: 'Donation handed over', description: `The prize of game #${pathId(c)} is marked as handed over.` });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Not changed', description: error.message, variant: 'destructive' });
    }
    return c.redirect('/admin?tab=promotions', 303);
  });
