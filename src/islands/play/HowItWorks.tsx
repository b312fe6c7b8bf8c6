import type { ReactNode } from 'react';

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-bold text-white">
        {n}
      </span>
      <div>
        <p className="m-0 font-bold">{title}</p>
        <p className="m-0 mt-0.5 text-sm text-slate-600">{children}</p>
      </div>
    </li>
  );
}

/** The "How it works" card: the three steps of a play and how influencers are scored. */
export function HowItWorks({ id, requiredParticipants }: { id: string; requiredParticipants: number }) {
  return (
    <section aria-labelledby={`${id}-how`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
      <h2 id={`${id}-how`} className="m-0 text-lg font-bold">
        How it works
      </h2>
      <ol className="m-0 mt-3 grid list-none gap-3 p-0">
        <Step n={1} title="Pick 5 influencers">
          Choose the five you think will score the most points in the next game.
        </Step>
        <Step n={2} title="Pay $1 to enter">
          Your $1 is only held on your card, and charged when the game ends.
        </Step>
        <Step n={3} title="Win the product for $1">
          {`Once ${requiredParticipants} players have joined, the game starts at the top of the next hour and lasts an hour. The highest combined score wins the product for $1.`}
        </Step>
      </ol>
      <details className="group mt-4 rounded-xl bg-sand">
        <summary className="flex items-center justify-between gap-2 rounded-xl px-4 py-3 text-sm font-bold">
          How are influencers scored?
          <span aria-hidden="true" className="text-lg leading-none transition-transform group-open:rotate-45">
            +
          </span>
        </summary>
        <div className="px-4 pb-4 text-sm text-slate-700">
          <p className="m-0">During the game's hour, each influencer earns points minute by minute from four metrics on every platform they post on:</p>
          <ul className="m-0 mt-2 grid gap-1 pl-5">
            <li>
              <strong>Followers gained</strong>: new followers won across their platforms.
            </li>
            <li>
              <strong>Engagement</strong>: how much their audience likes, comments and shares.
            </li>
            <li>
              <strong>Growth</strong>: how fast their audience is growing.
            </li>
            <li>
              <strong>Posts</strong>: each new post earns bonus points.
            </li>
          </ul>
          <p className="m-0 mt-2">
            Your score is the sum of your five influencers' points. The score shown on each influencer is what they earned over the last hour.
          </p>
        </div>
      </details>
    </section>
  );
}
