import { usableFreeEntries } from '../../domain/games/free-entries.ts';
import { type FreeEntryState, type FreeEntryView, orderFreeEntries, userFreeEntries } from '../../domain/promotions/free-entries-views.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import type { SignedInEnv } from '../../http/guards.ts';
import { BUY_ONE_PLAY_FREE, freeEntryDate, freeEntryLine } from '../../shared/free-entries.ts';

/*
 * Buy one, play free (issue 29) on the pages: the product page's line, the order page's section
 * (what the order gave), the profile Play tab's list. Server-rendered, no JavaScript.
 */

/** The product page: one line under the buttons of a flagged product. */
export function BuyOnePlayFreeNote({ product }: { product: { buyOnePlayFreeEnabled: boolean; quantity: number } }) {
  if (!product.buyOnePlayFreeEnabled || product.quantity <= 0) return null;
  return (
    <p className="m-0 mt-3 rounded-xl bg-coral/10 px-3 py-2 text-sm font-semibold text-coral-dark" data-buy-one-play-free="">
      {BUY_ONE_PLAY_FREE}
    </p>
  );
}

const stateWords: Record<FreeEntryState, string> = {
  available: 'Ready to use',
  used: 'Used',
  expired: 'Expired',
  withdrawn: 'Withdrawn (order canceled or refunded)',
};

/** '2 used', '1 withdrawn': the order page's tally of entries no longer usable. */
function tally(entries: FreeEntryView[], state: FreeEntryState, word: string): string | null {
  const n = entries.filter((e) => e.status === state).length;
  return n === 0 ? null : `${n} ${word}`;
}

/** The order page: the free entries this order gave ('1 free game entry, use by {date}'). */
export function OrderFreeEntries({ entries }: { entries: FreeEntryView[] }) {
  if (entries.length === 0) return null;
  const usable = entries.filter((e) => e.status === 'available');
  const others = [tally(entries, 'used', 'used'), tally(entries, 'expired', 'expired'), tally(entries, 'withdrawn', 'withdrawn')].filter(Boolean);
  return (
    <section aria-labelledby="free-entries-title" className="rounded-2xl border border-coral/30 bg-coral/5 p-5 print:border-0 print:p-0" data-free-entries="">
      <h2 id="free-entries-title" className="m-0 text-lg font-bold">
        Buy one, play free
      </h2>
      {usable.length > 0 && (
        <p className="m-0 mt-2 text-sm font-semibold" data-free-entry-line="">
          {freeEntryLine(usable.length, Math.min(...usable.map((e) => e.expiresAt)))}
        </p>
      )}
      {others.length > 0 && <p className="m-0 mt-1 text-sm text-slate-600">{`This order's free entries: ${others.join(', ')}.`}</p>}
      {usable.length > 0 && (
        <p className="m-0 mt-2 text-sm print:hidden">
          <a href="/play" className="font-semibold text-sea-dark">
            Find a game to join
          </a>
        </p>
      )}
    </section>
  );
}

export function orderFreeEntriesOf<E extends AppEnv>(c: AppContext<E>, orderId: number): FreeEntryView[] {
  const { db, clock } = c.env.deps;
  return orderFreeEntries(db, orderId, clock.now());
}

export interface FreeEntriesOfUser {
  available: number;
  entries: FreeEntryView[];
}

export function freeEntriesOf<E extends AppEnv & SignedInEnv>(c: AppContext<E>): FreeEntriesOfUser {
  const { db, clock } = c.env.deps;
  const userId = c.get('user').id;
  return { available: usableFreeEntries(db, userId, clock.now()), entries: userFreeEntries(db, userId, clock.now()) };
}

function entryDetail(entry: FreeEntryView): string {
  if (entry.status === 'available') return `Use by ${freeEntryDate(entry.expiresAt)}`;
  if (entry.status === 'expired') return `Expired ${freeEntryDate(entry.expiresAt)}`;
  if (entry.status === 'used') return entry.usedAt === null ? 'Used' : `Used ${freeEntryDate(entry.usedAt)}`;
  return entry.withdrawnAt === null ? 'Withdrawn' : `Withdrawn ${freeEntryDate(entry.withdrawnAt)}`;
}

/** The profile's Play tab: every free entry, usable ones first. */
export function FreeEntriesSection({ free }: { free: FreeEntriesOfUser }) {
  return (
    <section aria-labelledby="free-entries-heading" data-free-entries="">
      <h2 id="free-entries-heading" className="m-0 text-lg font-bold">
        Free game entries
      </h2>
      <p className="m-0 mt-1 text-sm text-slate-600">
        {free.entries.length === 0
          ? 'Buy a product marked "Buy one, play free" and each unit gives you a free game entry for 30 days.'
          : `You have ${free.available} free ${free.available === 1 ? 'entry' : 'entries'} to use. A free entry joins a game without the $1 hold and counts toward your daily limit.`}
      </p>
      {free.available > 0 && (
        <p className="m-0 mt-2 text-sm">
          <a href="/play" className="font-semibold text-sea-dark">
            Find a game to join
          </a>
        </p>
      )}
      {free.entries.length > 0 && (
        <ul className="m-0 mt-3 grid list-none gap-2 p-0">
          {free.entries.map((entry) => (
            <li
              key={entry.id}
              className="flex flex-wrap items-baseline justify-between gap-2 rounded-xl border border-slate-200 px-3 py-2 text-sm"
              data-entry={entry.status}
            >
              <span className="min-w-0">
                <span className="block font-semibold">{stateWords[entry.status]}</span>
                <span className="block text-slate-600 break-words">
                  {'From '}
                  <a href={`/orders/${entry.orderId}`} className="text-sea-dark underline">{`order #${entry.orderId}`}</a>
                  {` (${entry.product.name})`}
                  {entry.gameId !== null && (
                    <>
                      {' · '}
                      <a href={`/games/${entry.gameId}`} className="text-sea-dark underline">{`game #${entry.gameId}`}</a>
                    </>
                  )}
                </span>
              </span>
              <span className="text-slate-600">{entryDetail(entry)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
