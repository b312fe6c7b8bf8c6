import { Hono } from 'hono';
import { COACH_THANK_YOU, signUpForCoach } from '../../../domain/catalog/coach.ts';
import { DomainError } from '../../../domain/errors.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { renderPage } from '../../../http/render.tsx';
import type { PageStatus } from '../../../http/shared-page.ts';
import { CoachPage, coachPaths, coachPlatforms, platformOf } from './coach.tsx';
import { formBody } from '../../../http/request.ts';
import { coachSignupPost } from '../../../shared/schemas/coach.ts';
import { RulesPage } from './rules.tsx';
import { partnerStore } from './shared.tsx';
import { SunglassGalleryPage } from './sunglass-gallery.tsx';
import { isTutorialTab, TutorialPage, tutorialHref, tutorialTabs } from './tutorial.tsx';
import { WelcomePage } from './welcome.tsx';
import { trustPages, TrustPage } from './trust.tsx';

function showCoach<E extends AppEnv>(c: AppContext<E>, path: string, form: { subscribed: boolean; email?: string; error?: string }, status: PageStatus = 200) {
  const platform = platformOf(path);
  return renderPage(
    c,
    {
      title: 'Coach',
      path,
      description: `Coach is coming soon: influencer coaching${platform ? ` for ${coachPlatforms[platform]}` : ''} from the Competitive Shopping Association. Sign up to hear when it launches.`,
      noindex: form.subscribed || status !== 200 || undefined,
    },
    <CoachPage path={path} {...form} />,
    { status },
  );
}

const trustDescriptions: Record<(typeof trustPages)[number]['path'], string> = {
  '/terms': 'The terms of sale and use of the Competitive Shopping Association: accounts, buying, the $1 game, partners and the law that applies.',
  '/privacy':
    'What the Competitive Shopping Association collects, why, for how long, and your California privacy rights: download or delete your data yourself.',
  '/returns': 'The 30-day money-back guarantee: how to return something, free pick-up in Laguna Beach, and refunds to your card within 5 business days.',
  '/shipping': 'Free delivery within 2-3 hours in Laguna Beach (92651), standard and express shipping for cart orders, and how to follow an order.',
  '/contact': 'Write to the Competitive Shopping Association about an order, a return, a game or your data; visit our partner sunglass gallery.',
};

/** The static marketing pages of spec section 2 (/welcome, /tutorial, /sunglass-gallery, coach), the rules and the shop's policies. */
export const marketingPages = new Hono<AppEnv>()
  .get('/welcome', (c) =>
    renderPage(
      c,
      {
        title: 'Welcome',
        path: '/welcome',
        description:
          'The Competitive Shopping Association: designer sunglasses, t-shirts, shoes and books in Laguna Beach. Pay for it today, or play for it for $1.',
      },
      <WelcomePage now={c.env.deps.clock.now()} />,
    ),
  )
  .get('/tutorial', (c) => {
    const requested = c.req.query('tab');
    const tab = isTutorialTab(requested) ? requested : 'how';
    const label = tutorialTabs.find((t) => t.key === tab)!.label;
    return renderPage(
      c,
      {
        title: tab === 'how' ? 'Tutorial' : `${label} - Tutorial`,
        path: tutorialHref(tab),
        description:
          'How the Competitive Shopping Association works: play a $1 influencer game for designer goods, or pay now with 2-3 hour delivery in Laguna Beach.',
      },
      <TutorialPage tab={tab} charity={c.env.deps.config.charity} />,
    );
  })
  .get('/rules', (c) =>
    renderPage(
      c,
      {
        title: 'Official Game Rules',
        path: '/rules',
        description:
          'The official rules of the $1 influencer game: entries, capped games, how scores are computed and verified (commit and reveal), ties, holds, refunds and responsible play.',
      },
      <RulesPage dailyEntryLimit={c.env.deps.config.dailyEntryLimit} />,
    ),
  )
  .get('/sunglass-gallery', (c) =>
    renderPage(
      c,
      {
        title: 'Sunglass Gallery',
        path: '/sunglass-gallery',
        description: `${partnerStore.name}, our partner store in Laguna Beach since ${partnerStore.since}: Ray-Ban, Oakley, Persol, Maui Jim and more. Hours, directions and contact.`,
      },
      <SunglassGalleryPage now={c.env.deps.clock.now()} />,
    ),
  )
  .on(
    'GET',
    trustPages.map((page) => page.path),
    (c) => {
      const page = trustPages.find((candidate) => candidate.path === c.req.path)!;
      const { config } = c.env.deps;
      return renderPage(
        c,
        { title: page.title, path: page.path, description: trustDescriptions[page.path] },
        <TrustPage path={page.path} info={{ supportEmail: config.supportEmail, notificationsDays: config.retention.notificationsDays }} />,
      );
    },
  )
  .on('GET', coachPaths, (c) => showCoach(c, c.req.path, { subscribed: c.req.query('subscribed') === '1' }))
  .post(
    '/coach/signup',
    formBody(coachSignupPost, (c, error) => showCoach(c, '/coach', { subscribed: false, email: '', error: error.message }, 400)),
    (c) => {
      const body = c.req.valid('form');
      const next = body.next !== undefined && coachPaths.includes(body.next) ? body.next : '/coach';
      const email = body.email ?? '';
      try {
        const { created } = signUpForCoach(c.env.deps.db, c.env.deps.clock, email);
        setFlash(c, { title: created ? "You're on the list" : "You're already on the list", description: COACH_THANK_YOU });
        return c.redirect(`${next}?subscribed=1`, 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return showCoach(c, next, { subscribed: false, email: email.slice(0, 254), error: error.fields?.email ?? error.message }, 400);
      }
    },
  );
