import type { ReactNode } from 'react';
import type { CharityPartner } from '../../../config.ts';
import { CharityPartnerCard } from './charity.tsx';
import { ENTRY_FEE_CENTS, INFLUENCERS_PER_PLAY, requiredParticipantsFor } from '../../../domain/games/entry.ts';
import { DAY_MS, GAME_LENGTH_MS, HOUR_MS, WAITING_GAME_LIFETIME_MS } from '../../../domain/games/schedule.ts';
import { formatCents, shippingMethods, TAX_RATE } from '../../../shared/pricing.ts';
import { LOCAL_ZIP } from '../../../shared/schemas/profile.ts';
import { ButtonLink } from './shared.tsx';

/*
 * /tutorial (spec section 2): four tabs as links (?tab=how|play|pay|faqs). Every number on this
 * page comes from the rules in code (entry.ts, lifecycle.ts, pricing.ts), so the copy stays true.
 */

export type TutorialTab = 'how' | 'play' | 'pay' | 'faqs';
export const tutorialTabs: { key: TutorialTab; label: string }[] = [
  { key: 'how', label: 'How It Works' },
  { key: 'play', label: 'Play Option' },
  { key: 'pay', label: 'Pay Option' },
  { key: 'faqs', label: 'FAQs' },
];

export function isTutorialTab(value: unknown): value is TutorialTab {
  return tutorialTabs.some((tab) => tab.key === value);
}

export const tutorialHref = (tab: TutorialTab) => (tab === 'how' ? '/tutorial' : `/tutorial?tab=${tab}`);

const entry = formatCents(ENTRY_FEE_CENTS).replace('.00', '');
const gameHours = GAME_LENGTH_MS / HOUR_MS;
const gameLength = gameHours === 1 ? 'one hour' : `${gameHours} hours`;
const expiryDays = WAITING_GAME_LIFETIME_MS / DAY_MS;
const standard = shippingMethods.standard;
const express = shippingMethods.express;
const taxPercent = `${Math.round(TAX_RATE * 100)}%`;
const example = { priceCents: 14999, label: 'A $149.99 pair of sunglasses' };
const cheapExample = { priceCents: 150, label: 'a $1.50 item' };

function Steps({ steps }: { steps: { title: string; body: ReactNode }[] }) {
  return (
    <ol className="m-0 grid list-none gap-3 p-0">
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-3 rounded-xl bg-sand p-4">
          <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-extrabold text-white">
            {index + 1}
          </span>
          <div>
            <h3 className="m-0 text-base font-bold">{step.title}</h3>
            <p className="m-0 mt-1 text-sm text-slate-700">{step.body}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

function HowItWorks() {
  return (
    <>
      <p className="m-0 text-slate-700">Every product in the store can be bought; the ones with a game open to join can also be won.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-xl border border-coral-light bg-white p-4">
          <h3 className="m-0 text-lg font-extrabold text-coral-dark">Play for it</h3>
          <p className="m-0 mt-2 text-sm text-slate-700">
            {`Enter a game for ${entry}, pick ${INFLUENCERS_PER_PLAY} social-media influencers, and win if your influencers score the most during the game's hour. The winner buys the product for $1, or donates it to charity. Only products with a game open to join show Play, and prizes are delivered in Laguna Beach (${LOCAL_ZIP}) only.`}
          </p>
        </div>
        <div className="rounded-xl border border-sea bg-white p-4">
          <h3 className="m-0 text-lg font-extrabold text-sea-dark">Pay for it</h3>
          <p className="m-0 mt-2 text-sm text-slate-700">
            {`Buy it now at full price. Pay Now orders are delivered free within 2-3 hours in Laguna Beach (${LOCAL_ZIP}).`}
          </p>
        </div>
      </div>
      <h3 className="m-0 text-lg font-extrabold">A game, from start to finish</h3>
      <Steps
        steps={[
          {
            title: 'Players join',
            body: `Each player pays a ${entry} entry and picks ${INFLUENCERS_PER_PLAY} influencers. The number of players needed is the product's price rounded up to whole dollars.`,
          },
          {
            title: 'The game starts at the top of the hour',
            body: 'Once enough players have paid, the game starts at the next top of the hour (a game that fills at 1:40 PM starts at 2:00 PM).',
          },
          {
            title: `It lasts ${gameLength}`,
            body: 'Influencers earn points minute by minute from followers gained, engagement, growth and posts. Follow the live scores on the Scoreboard.',
          },
          {
            title: 'A winner is decided',
            body: 'The highest combined score wins the product and can buy it for $1 or donate it. A tie goes to the earlier entry.',
          },
        ]}
      />
    </>
  );
}

function PlayOption() {
  return (
    <>
      <p className="m-0 text-slate-700">{`Play Now turns ${entry} and a good eye for influencers into designer goods.`}</p>
      <Steps
        steps={[
          { title: 'Pick a product', body: 'Choose a game on the Scoreboard, or press Play Now on any product that has one.' },
          {
            title: 'Add a card to your profile',
            body: `Your ${entry} entry is only held (authorized) on your card when you join; it is charged when the game is decided.`,
          },
          {
            title: `Choose exactly ${INFLUENCERS_PER_PLAY} influencers`,
            body: 'Look at their followers, engagement, growth and posts, then pick the five you think will do best in the coming hour.',
          },
          {
            title: 'Wait for the game to fill',
            body: `The game needs as many players as the price in whole dollars, rounded up (at least 2). ${example.label} needs ${requiredParticipantsFor(example.priceCents)} players.`,
          },
          {
            title: 'Watch it live',
            body: `It starts at the top of the hour once full and lasts ${gameLength}. Your score is the sum of your ${INFLUENCERS_PER_PLAY} influencers' points over that hour.`,
          },
          { title: 'Win', body: 'The top score wins; a tie goes to the earlier entry. The prize waits in your cart at $1, or you can donate it to charity.' },
        ]}
      />
    </>
  );
}

function PayOption({ charity }: { charity: CharityPartner | null }) {
  return (
    <>
      <p className="m-0 text-slate-700">Want it today? Pay Now skips the game.</p>
      <Steps
        steps={[
          { title: 'Choose Pay Now', body: 'On a product page, press Pay Now to go straight to a one-product checkout.' },
          { title: 'Pay by card or Apple Pay', body: 'Your payment information is secure and encrypted.' },
          { title: 'Delivered in 2-3 hours', body: `Delivery is free and takes 2-3 hours. We deliver within ${LOCAL_ZIP} (Laguna Beach) only.` },
        ]}
      />
      <div className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
        <h3 className="m-0 text-base font-bold text-ink">Shopping for more than one thing?</h3>
        <p className="m-0 mt-1">
          {`Add products to your cart and check out once, by card or cash on delivery. Cart shipping: standard ${formatCents(standard.cents)} (${standard.detail}) or express ${formatCents(express.cents)} (${express.detail}). Tax is ${taxPercent} of the subtotal. Every order comes with a 30-day money-back guarantee.`}
        </p>
      </div>
      <div className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
        <h3 className="m-0 text-base font-bold text-ink">One of a kind? Bid on it</h3>
        <p className="m-0 mt-1">
          {'Some pieces go to auction. Enter the most you would pay and we bid for you, step by step; the winner is charged when the auction ends. '}
          <a href="/auctions" className="font-semibold text-sea-dark">
            See the auctions
          </a>
        </p>
      </div>
      <CharityPartnerCard charity={charity} />
    </>
  );
}

const faqs: { q: string; a: string }[] = [
  {
    q: 'How many players does a game need?',
    a: `The product's price rounded up to whole dollars, and never fewer than 2. ${example.label} needs ${requiredParticipantsFor(example.priceCents)} players; ${cheapExample.label} needs ${requiredParticipantsFor(cheapExample.priceCents)}.`,
  },
  {
    q: 'When does a game start?',
    a: 'At the top of the hour once enough players have paid their entry. A game that fills at 1:40 PM starts at 2:00 PM. No new entries are taken once it has started.',
  },
  { q: 'How long does a game last?', a: `${gameLength === 'one hour' ? 'One hour' : gameLength}, from the top of the hour to the next.` },
  {
    q: 'How is my score calculated?',
    a: `Your score is the sum of your ${INFLUENCERS_PER_PLAY} influencers' points over the game's hour. Influencers earn points from followers gained, engagement, growth and posts.`,
  },
  { q: 'What happens if two players tie?', a: 'Ties go to the earlier entry: the player whose entry was paid first wins.' },
  {
    q: 'Can anyone know the points in advance?',
    a: "No. When a game opens, the store draws a secret random seed and publishes its SHA-256 fingerprint at once. Each minute's points come from HMAC-SHA256 under that seed, so nobody can compute them before they happen. After the game the seed is published: anyone can check it against the fingerprint and recompute every score. The official rules (/rules) give the exact steps, and each game's page (/games/ID) shows its figures.",
  },
  {
    q: 'Can more players join a full game?',
    a: 'No. A game takes exactly the players it needs; once it is full, the next player opens (or joins) the next game for that product.',
  },
  {
    q: 'When is my card charged?',
    a: `The ${entry} is only held on your card when you join. It is charged when the game is decided, whether you win or not.`,
  },
  {
    q: 'What if a game never fills?',
    a: `Nothing is charged. A game that has not filled after ${expiryDays} days is canceled and every ${entry} hold is released.`,
  },
  { q: 'What does the winner get?', a: 'The winner buys the product for $1 (it is added to their cart) or donates it to charity.' },
  { q: 'Is there a guarantee?', a: 'Yes: every purchase has a 30-day money-back guarantee.' },
  { q: 'Where do you deliver, and how fast?', a: `Pay Now orders are delivered free within 2-3 hours, within ${LOCAL_ZIP} (Laguna Beach) only.` },
  {
    q: 'What do shipping and tax cost in the cart?',
    a: `Standard shipping is ${formatCents(standard.cents)} (${standard.detail}) and express shipping ${formatCents(express.cents)} (${express.detail}). Tax is ${taxPercent} of the subtotal.`,
  },
];

function Faqs() {
  return (
    <div className="grid gap-2">
      {faqs.map((faq) => (
        <details key={faq.q} className="group rounded-xl border border-slate-200 bg-white">
          <summary className="flex items-center justify-between gap-3 rounded-xl px-4 py-3 font-semibold">
            {faq.q}
            <span aria-hidden="true" className="inline-block text-slate-500 transition-transform group-open:rotate-180">
              ▾
            </span>
          </summary>
          <p className="m-0 border-t border-slate-100 px-4 py-3 text-sm text-slate-700">{faq.a}</p>
        </details>
      ))}
    </div>
  );
}

/** /tutorial?tab=: the four tabs and the way on to the games and the shop. */
export function TutorialPage({ tab, charity = null }: { tab: TutorialTab; charity?: CharityPartner | null }) {
  const current = tutorialTabs.find((t) => t.key === tab)!;
  return (
    <div className="mx-auto grid max-w-4xl gap-5">
      <div>
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-sea-dark">Tutorial</p>
        <h1 className="m-0 mt-1 text-3xl font-extrabold sm:text-4xl">How the CSA works</h1>
        <p className="m-0 mt-2 text-slate-700">Pay for it, or play for it. Here is everything you need to know.</p>
      </div>
      <nav aria-label="Tutorial sections" className="grid grid-cols-2 gap-1 rounded-xl bg-slate-200/70 p-1 sm:grid-cols-4">
        {tutorialTabs.map((t) => (
          <a
            key={t.key}
            href={tutorialHref(t.key)}
            aria-current={tab === t.key ? 'page' : undefined}
            className={`rounded-lg px-2 py-2.5 text-center text-sm font-semibold no-underline ${tab === t.key ? 'bg-white text-ink shadow-sm' : 'text-slate-700 hover:bg-white/60 hover:text-ink'}`}
          >
            {t.label}
          </a>
        ))}
      </nav>
      <section aria-labelledby="tutorial-tab-heading" className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        <h2 id="tutorial-tab-heading" className="m-0 text-xl font-extrabold">
          {tab === 'faqs' ? 'Frequently asked questions' : current.label}
        </h2>
        {tab === 'how' && <HowItWorks />}
        {tab === 'play' && <PlayOption />}
        {tab === 'pay' && <PayOption charity={charity} />}
        {tab === 'faqs' && <Faqs />}
      </section>
      <div className="flex flex-wrap gap-3">
        <ButtonLink href="/scoreboard">See Live Games</ButtonLink>
        <ButtonLink href="/products" tone="ink">
          Start Shopping
        </ButtonLink>
      </div>
    </div>
  );
}
