import { useState } from 'react';
import type { InfluencerView } from '../../shared/views/games.ts';
import { InfluencerRow } from './InfluencerRow.tsx';
import { PICKS } from './join.ts';

/** Spec section 9: 3 influencers shown at first. */
const INITIAL_SHOWN = 3;

/** The influencer list card: the first few rows, View More / Show Less, and the pick count while games are open. */
export function InfluencerList({
  id,
  influencers,
  open,
  picks,
  onDetails,
  onToggle,
}: {
  id: string;
  influencers: InfluencerView[];
  open: boolean;
  picks: number[];
  onDetails: (personId: number) => void;
  onToggle: (personId: number) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? influencers : influencers.slice(0, INITIAL_SHOWN);

  return (
    <section aria-labelledby={`${id}-list`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={`${id}-list`} className="m-0 text-base font-bold sm:text-lg">
          {open ? 'Pick your 5 influencers' : 'Influencers'}
        </h2>
        {open && <p className="m-0 shrink-0 whitespace-nowrap text-sm font-semibold text-slate-600">{`${picks.length}/${PICKS} selected`}</p>}
      </div>
      <ul id={`${id}-influencers`} className="m-0 mt-3 grid list-none gap-2 p-0">
        {shown.map((person) => (
          <InfluencerRow
            key={person.id}
            person={person}
            selected={picks.includes(person.id)}
            open={open}
            onDetails={() => onDetails(person.id)}
            onToggle={() => onToggle(person.id)}
          />
        ))}
      </ul>
      {influencers.length > INITIAL_SHOWN && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={`${id}-influencers`}
          onClick={() => setExpanded(!expanded)}
          className="mt-3 w-full rounded-xl border border-slate-300 bg-white py-2.5 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50"
        >
          {expanded ? 'Show Less' : 'View More'}
        </button>
      )}
      {influencers.length === 0 && <p className="m-0 text-slate-600">No influencers are available right now. Check back soon!</p>}
    </section>
  );
}
