import { useEffect, useRef, useState } from 'react';
import { formatCountdown, useCountdownNow } from './GameCountdown.tsx';
import { formatCompactScore } from '../shared/format.ts';
import { type CompetitionData, type CompetitionPlay, DEFAULT_REQUIRED_PARTICIPANTS } from '../shared/views/games.ts';
import { apiRequest } from './lib/http.ts';
import { onLiveFallback, subscribeLive } from './lib/live.ts';
import { GAME_LENGTH_MS } from '../shared/game-time.ts';
import { sizeText } from '../shared/size-label.ts';

/*
 * The product page's Social Competition tab (spec sections 2, 4 and 9): the game's state, a
 * countdown while it is live, and the leaderboard. Competition data is re-read every 10 s
 * while the game is live, every 30 s while it waits, and never once it is completed.
 *
 * The first render is the server's HTML exactly: the countdown is computed from the server's
 * `now` prop, and every timer starts in an effect.
 */

/** Spec section 4: re-read every 10 s while the game is live. */
export const POLL_ACTIVE_MS = 10_000;
/** Spec section 4: re-read every 30 s otherwise (until the game is completed). */
export const POLL_IDLE_MS = 30_000;
/** Spec section 9: a leaderboard bar is at least 5% of the leader's. */
export const MIN_BAR_PERCENT = 5;

export interface PollIntervals {
  active: number;
  idle: number;
}

/** The poll interval for a state; null once the game is completed (no more polling). */
export function pollIntervalFor(
  status: CompetitionData['gameStatus'],
  intervals: PollIntervals = { active: POLL_ACTIVE_MS, idle: POLL_IDLE_MS },
): number | null {
  if (status === 'completed') return null;
  return status === 'active' ? intervals.active : intervals.idle;
}

/** A bar's width in percent of the leader's score, never below 5%. */
export function barPercent(score: number | null, leader: number): number {
  if (!(leader > 0)) return MIN_BAR_PERCENT;
  return Math.min(100, Math.max(MIN_BAR_PERCENT, ((score ?? 0) / leader) * 100));
}

function isCompetitionData(value: unknown): value is CompetitionData {
  const data = value as Partial<CompetitionData> | null;
  return (
    !!data &&
    typeof data === 'object' &&
    ['waiting', 'active', 'completed'].includes(data.gameStatus as string) &&
    Array.isArray(data.plays) &&
    typeof data.participants === 'number'
  );
}

/** When the live countdown ends: one hour after the start (spec section 4). */
export function competitionEnd(data: Pick<CompetitionData, 'startTime' | 'endTime'>): number | null {
  if (data.startTime !== null) return data.startTime + GAME_LENGTH_MS;
  return data.endTime;
}

/** The winning play of a completed game (the first ranked one when the data names none). */
function winnerPlayOf(data: CompetitionData): CompetitionPlay | undefined {
  if (data.gameStatus !== 'completed') return undefined;
  if (data.winnerPlayId === undefined) return data.plays[0];
  return data.plays.find((p) => p.id === data.winnerPlayId);
}

/** One display name everywhere: the username, or 'You' for the viewer's own entry. */
export function playerName(play: CompetitionPlay, viewerId: number | null): string {
  return viewerId !== null && play.userId === viewerId ? 'You' : play.username;
}

function Status({ data, now, viewerId }: { data: CompetitionData; now: number; viewerId: number | null }) {
  const required = data.requiredParticipants || DEFAULT_REQUIRED_PARTICIPANTS;
  if (data.gameStatus === 'active') {
    const end = competitionEnd(data);
    const left = end === null ? 0 : end - now;
    return (
      <div className="rounded-2xl border border-red-200 bg-red-50 p-4">
        <p className="m-0 flex flex-wrap items-center gap-2 font-semibold text-ink">
          <span className="inline-flex items-center gap-1.5 rounded bg-red-600 px-2 py-0.5 text-xs font-bold tracking-wide text-white">
            <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-white animate-pulse" />
            LIVE
          </span>
          {left > 0 ? (
            <span>
              {'Live competition in progress! '}
              <span role="timer" className="tabular-nums font-extrabold">
                {formatCountdown(left)}
              </span>
              {' remaining'}
            </span>
          ) : (
            <span role="timer">Competition ended</span>
          )}
        </p>
        <p className="m-0 mt-1 text-sm text-slate-600">
          {left > 0 ? `${data.participants} players. Scores update every 10 seconds.` : 'Final scores are being counted. The winner will show here shortly.'}
        </p>
        <NextGameNote data={data} />
      </div>
    );
  }
  if (data.gameStatus === 'completed') {
    const winner = winnerPlayOf(data);
    return (
      <div className="rounded-2xl border border-amber-200 bg-amber-50 p-4">
        <p className="m-0 font-bold text-ink">Competition completed!</p>
        {winner ? (
          <p className="m-0 mt-1 text-sm text-slate-700">
            {'Winner: '}
            <strong className="font-bold text-ink">{playerName(winner, viewerId)}</strong>
            {` with ${formatCompactScore(winner.score)} points.`}
          </p>
        ) : (
          <p className="m-0 mt-1 text-sm text-slate-700">This game ended without a winner.</p>
        )}
      </div>
    );
  }
  const missing = Math.max(0, required - data.participants);
  const percent = Math.min(100, Math.round((data.participants / required) * 100));
  return (
    <div className="rounded-2xl border border-slate-200 bg-sand p-4">
      {data.gameId === null && (
        <p className="m-0 mb-2 text-slate-700">No game is running for this product yet. Be the first to play: pick 5 influencers for $1.</p>
      )}
      <p className="m-0 font-semibold text-ink">
        {missing > 0
          ? `Waiting for ${missing} more participants. (${data.participants}/${required} entries)`
          : `All players are in! The game starts at the top of the hour. (${data.participants}/${required} entries)`}
      </p>
      <div
        className="mt-3 h-2 rounded-full bg-white"
        role="progressbar"
        aria-label="Entries"
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={Math.min(data.participants, required)}
      >
        <div className="h-2 rounded-full bg-coral-dark" style={{ width: `${percent}%` }} />
      </div>
      <p className="m-0 mt-2 text-xs text-slate-600">Games start at the top of the hour once enough players have joined, and last 1 hour.</p>
      {missing === 0 && <NextGameNote data={data} />}
    </div>
  );
}

/** A full or live game takes no more entries: the next player opens or joins the next game. */
function NextGameNote({ data }: { data: CompetitionData }) {
  const next = data.nextGame;
  return (
    <p className="m-0 mt-2 text-sm font-semibold text-ink" data-next-game={next?.id ?? ''}>
      {next
        ? `This game is full. Join now and you enter the next game (${next.participants}/${next.requiredParticipants} entries).`
        : 'This game is full. Join now and you open the next game.'}
    </p>
  );
}

function Leaderboard({ data, viewerId }: { data: CompetitionData; viewerId: number | null }) {
  const leader = Math.max(0, ...data.plays.map((p) => p.score ?? 0));
  const winnerId = winnerPlayOf(data)?.id;
  return (
    <section aria-labelledby="leaderboard-heading" className="mt-5">
      <h3 id="leaderboard-heading" className="m-0 text-base font-bold">
        Leaderboard
      </h3>
      {data.plays.length === 0 ? (
        <p className="m-0 mt-2 text-sm text-slate-600">No players yet. Be the first to join!</p>
      ) : (
        <>
          {data.gameStatus === 'waiting' && <p className="m-0 mt-1 text-xs text-slate-600">Scores start counting when the game goes live.</p>}
          <ol className="m-0 mt-3 grid list-none gap-2 p-0">
            {data.plays.map((play, index) => {
              const won = play.id === winnerId;
              const mine = viewerId !== null && play.userId === viewerId;
              return (
                <li
                  key={play.id}
                  data-play-id={play.id}
                  data-winner={won ? 'true' : undefined}
                  data-mine={mine ? 'true' : undefined}
                  className={`rounded-xl border px-3 py-2 ${won ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}
                >
                  <div className="flex items-center gap-3 text-sm">
                    <span className={`w-6 shrink-0 text-center font-extrabold ${index === 0 ? 'text-coral-dark' : 'text-slate-600'}`}>{index + 1}</span>
                    <span className="min-w-0 flex-1 truncate font-semibold">
                      {mine ? <span className="rounded-full bg-sea px-2 py-0.5 text-[11px] font-bold text-white">You</span> : play.username}
                      {won && <span className="ml-2 rounded-full bg-amber-400 px-2 py-0.5 text-[11px] font-bold text-ink">Winner</span>}
                    </span>
                    <span className="shrink-0 font-bold tabular-nums" data-score="">
                      {formatCompactScore(play.score)}
                    </span>
                  </div>
                  <div className="ml-9 mt-1.5 h-1.5 rounded-full bg-slate-100" aria-hidden="true">
                    <div
                      data-bar=""
                      className={`h-1.5 rounded-full ${won || index === 0 ? 'bg-coral-dark' : 'bg-sea'}`}
                      style={{ width: `${barPercent(play.score, leader)}%` }}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}

export interface CompetitionPanelProps {
  productId: number;
  initial: CompetitionData;
  /** The server's time when it rendered the page (epoch ms). */
  now: number;
  /** For tests; the page leaves them at the spec's 10 s and 30 s. */
  pollIntervals?: PollIntervals;
  /** The signed-in user, whose line is marked 'You'. */
  viewerId?: number | null;
}

export default function CompetitionPanel({ productId, initial, now: serverNow, pollIntervals, viewerId = null }: CompetitionPanelProps) {
  const [data, setData] = useState(initial);
  const end = data.gameStatus === 'active' ? competitionEnd(data) : null;
  const now = useCountdownNow(serverNow, end, data.gameStatus === 'active');
  const activeMs = pollIntervals?.active ?? POLL_ACTIVE_MS;
  const idleMs = pollIntervals?.idle ?? POLL_IDLE_MS;
  const interval = pollIntervalFor(data.gameStatus, { active: activeMs, idle: idleMs });
  const busy = useRef(false);
  const refreshedOnMount = useRef(false);
  const live = data.gameStatus === 'active';
  // The live stream brings every change; polling is only the fallback when it cannot connect.
  const [polling, setPolling] = useState(false);

  useEffect(() => {
    const stop = subscribeLive('competition', { product: productId }, (message) => {
      const fresh = (message as { productId?: unknown; competition?: unknown }) ?? {};
      if (fresh.productId === productId && isCompetitionData(fresh.competition)) setData(fresh.competition);
    });
    const stopFallback = onLiveFallback(setPolling);
    return () => {
      stop();
      stopFallback();
    };
  }, [productId]);

  useEffect(() => {
    if (interval === null || !polling) return;
    let stopped = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const poll = async () => {
      if (stopped || document.hidden || busy.current) return;
      busy.current = true;
      try {
        const fresh = await apiRequest<CompetitionData>('GET', `/api/products/${productId}/competition`);
        if (stopped || !isCompetitionData(fresh)) return;
        // A completed game never changes again: stop now, not when React gets to the effect's clean-up.
        if (pollIntervalFor(fresh.gameStatus, { active: activeMs, idle: idleMs }) === null) {
          stopped = true;
          clearInterval(timer);
        }
        setData(fresh);
      } catch {
        // Keep the last data; the next interval tries again.
      } finally {
        busy.current = false;
      }
    };
    // A live game's page can come from the visitors' page cache (keyed by the game's state and
    // entries, not its scores), so live scores are re-read once at once, then every 10 s.
    if (live && !refreshedOnMount.current) void poll();
    refreshedOnMount.current = true;
    timer = setInterval(poll, interval);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [productId, interval, live, polling, activeMs, idleMs]);

  return (
    <div data-game-status={data.gameStatus}>
      {/* A game is for one size (issue 38): the shown game's, so nobody takes an M game for their L. */}
      {data.size && (
        <p data-game-size={data.size} className="m-0 mb-3 inline-block rounded-full bg-ink px-3 py-1 text-xs font-bold text-white">
          {`${sizeText(data.size)} game`}
        </p>
      )}
      <Status data={data} now={now} viewerId={viewerId} />
      <Leaderboard data={data} viewerId={viewerId} />
      {data.gameId !== null && (
        <p className="m-0 mt-4 break-all text-xs text-slate-600">
          {data.seedHash ? `Seed hash ${data.seedHash.slice(0, 16)}… · ` : ''}
          <a href={`/games/${data.gameId}`} className="font-semibold text-sea-dark">
            Game details and how to check the result
          </a>
        </p>
      )}
      {(data.canJoin ?? data.gameStatus !== 'completed') && (
        <a
          href={`/play/${productId}`}
          className="mt-5 inline-block rounded-full bg-coral-dark px-6 py-2.5 text-sm font-bold text-white no-underline hover:bg-coral"
        >
          Play Now
        </a>
      )}
    </div>
  );
}
