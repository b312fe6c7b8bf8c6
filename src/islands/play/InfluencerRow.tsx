import type { InfluencerView } from '../../shared/views/games.ts';
import { InfoIcon } from '../../shared/ui/icons.tsx';
import { Avatar, platformName, SelectButton } from './parts.tsx';

/** One influencer in the list: avatar, handle, platforms, last hour's score, details and (when open) Select. */
export function InfluencerRow({
  person,
  selected,
  open,
  onDetails,
  onToggle,
}: {
  person: InfluencerView;
  selected: boolean;
  open: boolean;
  onDetails: () => void;
  onToggle: () => void;
}) {
  return (
    <li
      data-influencer={person.id}
      className={`flex flex-col gap-2 rounded-xl border-2 p-3 sm:flex-row sm:items-center sm:gap-3 ${selected ? 'border-coral-dark bg-coral/5' : 'border-slate-200'}`}
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <Avatar person={person} size="sm" />
        <div className="min-w-0 flex-1">
          <p className="m-0 truncate font-bold">{person.name}</p>
          <p className="m-0 truncate text-sm text-slate-600">{person.handle}</p>
          <ul className="m-0 mt-1 flex list-none flex-wrap gap-1 p-0" aria-label={`${person.name}'s platforms`}>
            {Object.entries(person.platforms).map(([platform, followers]) => (
              <li key={platform} className="whitespace-nowrap rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                {`${platformName(platform)} ${followers}`}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="flex items-center justify-between gap-2 border-t border-slate-100 pt-2 sm:border-0 sm:pt-0">
        <p className="m-0 flex items-baseline gap-1.5 text-xs text-slate-600 sm:mr-1 sm:block sm:text-right">
          Score
          <span className="text-base font-extrabold text-ink sm:block">{person.score.toFixed(1)}</span>
        </p>
        <div className="flex items-center gap-2">
          <button
            type="button"
            aria-haspopup="dialog"
            aria-label={`Details for ${person.name}`}
            onClick={onDetails}
            className="flex h-10 w-10 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-700 cursor-pointer hover:bg-slate-50"
          >
            <InfoIcon />
          </button>
          {open && <SelectButton selected={selected} name={person.name} onToggle={onToggle} />}
        </div>
      </div>
    </li>
  );
}
