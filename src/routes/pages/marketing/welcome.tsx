import { ENTRY_FEE_CENTS, INFLUENCERS_PER_PLAY } from '../../../domain/games/entry.ts';
import { formatCents } from '../../../shared/pricing.ts';
import { LOCAL_ZIP } from '../../../shared/schemas/profile.ts';
import { ButtonLink, Hero, partnerSinceText, partnerStore } from './shared.tsx';

const entry = formatCents(ENTRY_FEE_CENTS).replace('.00', '');

function WayCard({ id, badge, title, tone, points, cta }: { id: string; badge: string; title: string; tone: 'coral' | 'sea'; points: string[]; cta: string }) {
  const accent = tone === 'coral' ? 'bg-coral-dark' : 'bg-sea-dark';
  return (
    <article aria-labelledby={id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <p className={`m-0 self-start rounded-full px-3 py-1 text-xs font-bold uppercase tracking-wider text-white ${accent}`}>{badge}</p>
      <h2 id={id} className="m-0 mt-3 text-xl font-extrabold">
        {title}
      </h2>
      <ul className="m-0 mt-3 grid list-none gap-2 p-0 text-sm text-slate-700">
        {points.map((point) => (
          <li key={point} className="flex gap-2">
            <span aria-hidden="true" className={tone === 'coral' ? 'text-coral-dark' : 'text-sea-dark'}>
              ✓
            </span>
            <span>{point}</span>
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-5">
        <ButtonLink href="/scoreboard" tone={tone === 'coral' ? 'coral' : 'ink'} className="w-full">
          {cta}
        </ButtonLink>
      </div>
    </article>
  );
}

/** /welcome: the landing page (spec section 2). */
export function WelcomePage({ now }: { now: number }) {
  return (
    <div className="grid gap-8">
      <Hero
        eyebrow={`Laguna Beach · ZIP ${LOCAL_ZIP}`}
        title="The Competitive Shopping Association"
        actions={
          <>
            <ButtonLink href="/tutorial" tone="light">
              Tutorial
            </ButtonLink>
            <ButtonLink href="/business-portal" tone="light">
              Business Portal
            </ButtonLink>
            <ButtonLink href="/products">Start Shopping</ButtonLink>
          </>
        }
      >
        <p className="m-0">
          Designer sunglasses, t-shirts, shoes and books from Laguna Beach. Pay for any of them and get it today, or play for the ones with a game open to join:{' '}
          {entry} gets you into a game you can win.
        </p>
      </Hero>

      <section aria-label="Two ways to get a product" className="grid gap-4 sm:grid-cols-2">
        <WayCard
          id="way-play"
          badge="Play"
          title="Play Now"
          tone="coral"
          cta="Play Now"
          points={[
            `Pay a ${entry} entry and pick ${INFLUENCERS_PER_PLAY} social-media influencers.`,
            'The game starts at the top of the hour once enough players have joined, and lasts one hour.',
            'Highest combined influencer score wins: buy the product for $1, or donate it to charity.',
            `Products with a game open to join show Play; prizes are delivered in Laguna Beach (${LOCAL_ZIP}) only.`,
            'Your $1 is only held on your card until the game is decided.',
          ]}
        />
        <WayCard
          id="way-pay"
          badge="Pay"
          title="Pay Now"
          tone="sea"
          cta="Pay Now"
          points={[
            'Buy at full price with a fast checkout.',
            `Free delivery within 2-3 hours in Laguna Beach (${LOCAL_ZIP}).`,
            'Pay by card or Apple Pay.',
            '30-day money-back guarantee.',
          ]}
        />
      </section>

      <details id="partnership" className="group rounded-2xl border border-slate-200 bg-white shadow-sm">
        <summary className="flex items-center justify-between gap-3 rounded-2xl p-5 sm:p-6">
          <span>
            <span className="block text-xs font-semibold uppercase tracking-widest text-sea-dark">Partnership</span>
            <span className="mt-1 block text-lg font-extrabold">{`Our partner store: ${partnerStore.name}`}</span>
          </span>
          <span aria-hidden="true" className="inline-block text-xl text-slate-500 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        <div className="grid gap-4 border-t border-slate-200 p-5 sm:grid-cols-2 sm:p-6">
          <div>
            <p className="m-0 text-slate-700">
              {`Every pair of designer sunglasses in our store comes from ${partnerStore.name}, a family-run sunglasses gallery in Laguna Beach. ${partnerSinceText(now)}, they fit, adjust and service everything they sell.`}
            </p>
            <a href="/sunglass-gallery" className="mt-3 inline-block font-semibold text-sea-dark">
              Visit the Sunglass Gallery page
            </a>
          </div>
          <address className="not-italic rounded-xl bg-sand p-4 text-sm">
            <span className="block font-bold">{partnerStore.name}</span>
            <span className="block">{partnerStore.street}</span>
            <span className="block">{`${partnerStore.city}, ${partnerStore.state} ${partnerStore.zip}`}</span>
            <a href={partnerStore.phoneHref} className="mt-2 inline-block font-semibold text-sea-dark">
              {partnerStore.phone}
            </a>
          </address>
        </div>
      </details>
    </div>
  );
}
