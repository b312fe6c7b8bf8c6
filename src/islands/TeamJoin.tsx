import { useState } from 'react';
import { dollarsText, type TeamView, teamStateLine } from '../shared/views/teams.ts';
import { ShareLink, TimeLeft, useTeamAction } from './team/team-actions.tsx';
import { toastAfterNavigation } from './lib/toast.ts';

export interface TeamJoinProps {
  team: TeamView;
  /** The share link of this page. */
  url: string;
  now: number;
}

/**
 * The team page's state line and action: Join (the same sign-in, card and profile detours as a
 * play), or the link to share. After a join the line says what the join made of the team.
 */
export default function TeamJoin({ team, url, now }: TeamJoinProps) {
  const [joined, setJoined] = useState<{ orderId: number | null; status: string } | null>(null);
  const status = joined ? (joined.status === 'filled' ? 'filled' : 'capturing') : team.status;
  return (
    <>
      <p className="m-0 mt-2 text-sm font-semibold" role="status">
        {teamStateLine(status, team.expiresAt, now)}
      </p>
      <TeamAction team={team} url={url} now={now} joined={joined} onJoined={setJoined} />
    </>
  );
}

function TeamAction({
  team,
  url,
  now,
  joined,
  onJoined,
}: TeamJoinProps & { joined: { orderId: number | null; status: string } | null; onJoined: (answer: { orderId: number | null; status: string }) => void }) {
  const join = useTeamAction<{ orderId: number | null; status: string }>(`/api/teams/${team.code}/join`, `/team/${team.code}`, (answer) => {
    onJoined(answer);
    // The heading, the member list and the order link are the server's: the page is read again with the joiner in it.
    toastAfterNavigation(
      answer.status === 'filled'
        ? { title: 'Your team is full!', description: `You paid ${dollarsText(team.totalPerMember)} for your own ${own}.` }
        : { title: 'You joined the team', description: 'Your payment is being confirmed with the card processor; we will notify you as soon as it is.' },
    );
    window.location.assign(`/team/${team.code}`);
  });
  const own = team.sizeLabel ? `${team.product.name} in size ${team.sizeLabel}` : team.product.name;
  const share = <ShareLink url={url} title={`Join my team: ${team.product.name} at half price`} />;
  if (joined) {
    return (
      <div className="mt-4 rounded-xl bg-emerald-50 p-4" data-team-joined="">
        <p className="m-0 font-bold">{joined.status === 'filled' ? 'Your team is full!' : 'You joined the team.'}</p>
        <p className="m-0 mt-1 text-sm">
          {joined.status === 'filled'
            ? `You paid ${dollarsText(team.totalPerMember)} for your own ${own}.`
            : 'Your payment is being confirmed with the card processor; we will notify you as soon as it is.'}
        </p>
        {joined.orderId !== null && (
          <a href={`/orders/${joined.orderId}`} className="mt-2 inline-block font-bold text-ink">
            View your order
          </a>
        )}
      </div>
    );
  }
  if (team.viewerIsMember) {
    return (
      <div className="mt-4" data-team-mine="">
        <p className="m-0 text-sm">You are in this team. {team.status === 'open' && 'Share the link: when a friend joins, you both pay half.'}</p>
        {team.viewerOrderId != null && (
          <a href={`/orders/${team.viewerOrderId}`} className="mt-2 inline-block font-bold text-ink" data-team-order="">
            {`View your order #${team.viewerOrderId}`}
          </a>
        )}
        {team.status === 'open' && share}
      </div>
    );
  }
  if (team.status !== 'open') return null;
  return (
    <div className="mt-4">
      <p className="m-0 text-sm text-slate-600">
        <TimeLeft expiresAt={team.expiresAt} now={now} /> · {dollarsText(team.totalPerMember)} with tax, free delivery in Laguna Beach (92651)
      </p>
      {team.sizeLabel && <p className="m-0 mt-1 text-sm text-slate-600">{`This team is for size ${team.sizeLabel}: you get one in that size.`}</p>}
      <button
        type="button"
        onClick={join.run}
        disabled={join.busy}
        className="mt-3 w-full rounded-xl bg-coral-dark py-3 font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60"
      >
        {join.busy ? 'Joining…' : `Join for ${dollarsText(team.pricePerMember)}`}
      </button>
      {join.detourDialog}
    </div>
  );
}
