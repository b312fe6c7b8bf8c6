import { useEffect, useState } from 'react';
import { apiRequest } from './lib/http.ts';
import { subscribeLive } from './lib/live.ts';
import { toast } from './lib/toast.ts';
import { dollarsText, type OpenTeamView, type ProductTeamsView } from '../shared/views/teams.ts';
import { ShareLink, TimeLeft, useTeamAction } from './team/team-actions.tsx';

export interface TeamBuyProps {
  view: ProductTeamsView;
  productName: string;
  now: number;
  /**
   * Set for a visitor: the section is rendered on the server only (no JavaScript shipped), and
   * starting a team is a sign-in link that comes back here.
   */
  signInHref?: string;
  /** The size chosen on the product page (issue 38): the team is for it. Absent: the product's only size (or a 400 naming the sizes). */
  variantId?: number;
  /** That size's label ('M'), said on the Start button. */
  sizeLabel?: string;
  /** The product has several sizes and none is chosen yet: starting waits for one (the start would be refused). */
  needsSize?: boolean;
}

/**
 * The product page's 'Buy with a friend' section (issue 29 item 1): start a team, then share its
 * link; and the open teams to join, kept current by the live stream (event 'team').
 */
export default function TeamBuy({ view, productName, now, signInHref, variantId, sizeLabel, needsSize = false }: TeamBuyProps) {
  const [teams, setTeams] = useState<OpenTeamView[]>(view.teams);
  const [mine, setMine] = useState<string | null>(null);
  const path = `/product/${view.productId}`;
  const start = useTeamAction<{ code: string }>(
    `/api/products/${view.productId}/teams`,
    path,
    (answer) => {
      setMine(answer.code);
      toast({ title: 'Your team is open', description: 'Send the link to a friend: when they join within 24 hours, you both pay half.' });
    },
    (error) => {
      const code = error.data.teamCode;
      if (typeof code !== 'string') return false;
      setMine(code);
      toast({ title: 'You already have a team', description: 'Here is its link again: share it with a friend.' });
      return true;
    },
    variantId === undefined ? undefined : { variantId },
  );
  // The page is one for every shopper: their own team comes from their own read.
  useEffect(() => {
    if (signInHref) return;
    apiRequest<ProductTeamsView>('GET', `/api/products/${view.productId}/teams`)
      .then((own) => {
        if (!own || !Array.isArray(own.teams)) return;
        setTeams(own.teams);
        if (typeof own.yourTeamCode === 'string') setMine(own.yourTeamCode);
      })
      .catch(() => {
        // The page's list stays; the live stream brings the next one.
      });
  }, [view.productId, signInHref]);
  useEffect(
    () =>
      subscribeLive('team', { product: view.productId }, (data) => {
        const message = data as { productId?: number; teams?: ProductTeamsView };
        if (message.productId === view.productId && message.teams) setTeams(message.teams.teams);
      }),
    [view.productId],
  );
  const others = teams.filter((team) => team.code !== mine);
  return (
    <section aria-labelledby="team-buy-heading" className="mt-6 rounded-2xl border-2 border-coral/40 bg-white p-4" data-team-buy="">
      <h2 id="team-buy-heading" className="m-0 text-lg font-extrabold">
        Buy with a friend for {dollarsText(view.pricePerMember)}
      </h2>
      <p className="m-0 mt-1 text-sm text-slate-600">
        Start a team and we hold {dollarsText(view.totalPerMember)} (half the price plus tax) on your card. When a friend joins within 24 hours, you each pay
        half and each get your own {productName}. If nobody joins, the hold is released.
      </p>
      {mine ? (
        <div className="mt-3">
          <h3 className="m-0 text-sm font-bold" data-your-team="">
            {'Your team · '}
            <a href={`/team/${mine}`} className="font-semibold text-sea-dark">
              Open its page
            </a>
          </h3>
          <p className="m-0 mt-1 text-sm">Send this link to a friend:</p>
          <ShareLink url={`${window.location.origin}/team/${mine}`} title={`Join my team: ${productName} at half price`} />
        </div>
      ) : signInHref ? (
        <a href={signInHref} className="mt-3 block w-full rounded-xl bg-coral-dark py-3 text-center font-bold text-white no-underline hover:bg-coral">
          Sign in to start a team
        </a>
      ) : (
        <button
          type="button"
          onClick={start.run}
          disabled={start.busy || needsSize}
          className="mt-3 w-full rounded-xl bg-coral-dark py-3 font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60"
        >
          {needsSize ? 'Choose a size' : start.busy ? 'Starting your team…' : sizeLabel ? `Start a team for size ${sizeLabel}` : 'Start a team'}
        </button>
      )}
      {others.length > 0 && (
        <div className="mt-4">
          <h3 className="m-0 text-sm font-bold">Open teams to join</h3>
          <ul className="m-0 mt-2 list-none p-0" data-open-teams="">
            {others.map((team) => (
              <li key={team.code} className="flex items-center justify-between gap-3 border-t border-slate-100 py-2 text-sm">
                <span>
                  <span className="font-semibold">{team.starterName}</span>
                  {team.sizeLabel ? ` · Size ${team.sizeLabel}` : ''} · <TimeLeft expiresAt={team.expiresAt} now={now} />
                </span>
                <a href={`/team/${team.code}`} className="rounded-lg border border-ink px-3 py-1 font-bold text-ink no-underline hover:bg-slate-50">
                  Join for {dollarsText(view.pricePerMember)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      {start.detourDialog}
    </section>
  );
}
