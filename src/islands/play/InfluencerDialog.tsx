import type { RefObject } from 'react';
import { formatFollowers } from '../../shared/format.ts';
import type { InfluencerView } from '../../shared/views/games.ts';
import { CloseIcon } from '../../shared/ui/icons.tsx';
import { Avatar, platformName, SelectButton } from './parts.tsx';

/*
 * The influencer detail dialog: this minute's metrics per platform as bars, with their scaling.
 * PlayGame owns the dialog element (it opens it when a row's details are asked for).
 */

type MetricKey = 'followers' | 'engagement' | 'growth' | 'posts';

/** Spec section 9, simulated metric bars: followers scale 10M, engagement x5, growth x5, posts x2, each capped at 100. */
export function metricBarPercent(metric: MetricKey, value: number): number {
  const scaled = { followers: (value / 10_000_000) * 100, engagement: value * 5, growth: value * 5, posts: value * 2 }[metric];
  return Math.round(Math.max(0, Math.min(100, scaled)) * 100) / 100;
}

const metricRows: { key: MetricKey; label: string; text: (value: number) => string }[] = [
  { key: 'followers', label: 'Followers', text: (v) => formatFollowers(v) },
  { key: 'engagement', label: 'Engagement', text: (v) => `${v.toFixed(2)}%` },
  { key: 'growth', label: 'Growth', text: (v) => `${v.toFixed(3)}% a day` },
  { key: 'posts', label: 'Posts', text: (v) => `${v} this minute` },
];

export function InfluencerDialog({
  id,
  dialogRef,
  detail,
  open,
  picks,
  onToggle,
  onClose,
}: {
  id: string;
  dialogRef: RefObject<HTMLDialogElement | null>;
  detail: InfluencerView | undefined;
  open: boolean;
  picks: number[];
  onToggle: (personId: number) => void;
  onClose: () => void;
}) {
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-detail-title`}
      onClose={onClose}
      className="w-[min(92vw,32rem)] max-h-[85vh] overflow-y-auto rounded-2xl border-0 p-0 shadow-2xl backdrop:bg-black/50"
    >
      {detail && (
        <div className="p-5">
          <div className="flex items-start gap-3">
            <Avatar person={detail} size="lg" />
            <div className="min-w-0 flex-1">
              <h2 id={`${id}-detail-title`} className="m-0 text-xl font-extrabold">
                {detail.name}
              </h2>
              <p className="m-0 text-sm text-slate-600">{`${detail.handle}${detail.category ? ` · ${detail.category}` : ''}`}</p>
              <p className="m-0 mt-1 text-sm">
                Score (last hour): <strong>{detail.score.toFixed(1)}</strong>
              </p>
            </div>
            <button
              type="button"
              aria-label="Close"
              onClick={() => dialogRef.current?.close()}
              className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full border-0 bg-slate-100 text-ink cursor-pointer hover:bg-slate-200"
            >
              <CloseIcon />
            </button>
          </div>
          <p className="m-0 mt-4 text-xs text-slate-600">This minute's metrics, per platform.</p>
          <div className="mt-2 grid gap-3">
            {Object.entries(detail.metrics).map(([platform, metrics]) => (
              <section key={platform} aria-labelledby={`${id}-${platform}`} className="rounded-xl bg-sand p-3" data-platform={platform}>
                <h3 id={`${id}-${platform}`} className="m-0 text-sm font-bold">
                  {`${platformName(platform)} · ${detail.platforms[platform] ?? formatFollowers(metrics.followers)} followers`}
                </h3>
                <ul className="m-0 mt-2 grid list-none gap-2 p-0">
                  {metricRows.map((row) => {
                    const value = metrics[row.key];
                    return (
                      <li key={row.key} data-metric={row.key}>
                        <div className="flex justify-between gap-2 text-xs">
                          <span className="font-semibold">{row.label}</span>
                          <span className="text-slate-700">{row.text(value)}</span>
                        </div>
                        <div className="mt-1 h-2 overflow-hidden rounded-full bg-white" aria-hidden="true">
                          <div data-bar="" className="h-full rounded-full bg-sea" style={{ width: `${metricBarPercent(row.key, value)}%` }} />
                        </div>
                      </li>
                    );
                  })}
                </ul>
              </section>
            ))}
          </div>
          <div className="mt-5 flex flex-wrap justify-end gap-3">
            <button
              type="button"
              onClick={() => dialogRef.current?.close()}
              className="h-10 rounded-full border border-slate-300 bg-white px-4 text-sm font-bold cursor-pointer hover:bg-slate-50"
            >
              Close
            </button>
            {open && <SelectButton selected={picks.includes(detail.id)} name={detail.name} onToggle={() => onToggle(detail.id)} wide />}
          </div>
        </div>
      )}
    </dialog>
  );
}
