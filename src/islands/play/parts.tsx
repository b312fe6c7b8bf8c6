import type { InfluencerView } from '../../shared/views/games.ts';
import { CheckIcon } from '../../shared/ui/icons.tsx';

/* Small pieces shared by the influencer rows and the detail dialog. */

const platformNames: Record<string, string> = { instagram: 'Instagram', tiktok: 'TikTok', youtube: 'YouTube', twitter: 'Twitter' };
export const platformName = (key: string) => platformNames[key] ?? key.charAt(0).toUpperCase() + key.slice(1);

export function Avatar({ person, size }: { person: InfluencerView; size: 'sm' | 'lg' }) {
  const box = size === 'sm' ? 'h-12 w-12 text-base' : 'h-16 w-16 text-xl';
  if (!person.avatar) {
    const initials = person.name
      .split(/\s+/)
      .map((word) => word.charAt(0))
      .join('')
      .slice(0, 2);
    return (
      <span aria-hidden="true" className={`${box} flex shrink-0 items-center justify-center rounded-full bg-sea font-bold text-white`}>
        {initials}
      </span>
    );
  }
  return (
    <img
      src={person.avatar}
      alt=""
      width={64}
      height={64}
      loading="lazy"
      decoding="async"
      className={`${box} shrink-0 rounded-full bg-slate-100 object-cover`}
    />
  );
}

export function SelectButton({ selected, name, onToggle, wide = false }: { selected: boolean; name: string; onToggle: () => void; wide?: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onToggle}
      className={`inline-flex h-10 items-center justify-center gap-1.5 rounded-full border-2 px-4 text-sm font-bold cursor-pointer ${wide ? 'min-w-32' : 'min-w-24'} ${
        selected ? 'border-coral-dark bg-coral-dark text-white hover:bg-coral' : 'border-ink bg-white text-ink hover:bg-slate-50'
      }`}
    >
      {selected && <CheckIcon />}
      {selected ? 'Selected' : 'Select'}
      <span className="sr-only">{` ${name}`}</span>
    </button>
  );
}
