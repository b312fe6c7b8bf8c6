import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { ProductImage } from '../../components/ProductImage.tsx';
import { findProduct, productView } from '../../domain/catalog/catalog.ts';
import { shareCardImage } from '../../domain/catalog/share-cards.ts';
import { teamView } from '../../domain/promotions/teams-views.ts';
import type { AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import { dollarsText, teamStateLine } from '../../shared/views/teams.ts';
import { notFound } from './not-found.tsx';

/*
 * /team/{code}: the page a team's share link opens (issue 29 item 1). Its own preview ('Join my
 * team: {product} at half price', the product's share card), the product, the starter (masked),
 * the price per member and the time left, and Join (the TeamJoin island). Rendered per viewer:
 * it says whether you are in the team.
 */

export const teamPages = new Hono<AppEnv>().get('/team/:code', (c) => {
  const { db, clock, config } = c.env.deps;
  const user = c.get('user');
  const team = teamView(db, c.req.param('code'), user?.id ?? null);
  const stored = team ? findProduct(db, team.product.id) : undefined;
  if (!team || !stored) return notFound(c);
  const now = clock.now();
  const product = productView(stored);
  const url = `${config.publicUrl}/team/${team.code}`;
  const over = team.status === 'filled' || team.status === 'expired' || team.status === 'cancelled';
  c.header('cache-control', 'private, no-store');
  return renderPage(
    c,
    {
      title: `Join my team: ${team.product.name} at half price`,
      description: `Buy ${team.product.name} with a friend: ${dollarsText(team.pricePerMember)} each instead of ${dollarsText(team.product.price)}, free delivery in Laguna Beach.`,
      image: shareCardImage(product),
      path: `/team/${team.code}`,
      noindex: true,
    },
    <div className="mx-auto grid max-w-3xl gap-6 md:grid-cols-2" data-team-page={team.status}>
      <a href={`/product/${product.id}`} className="block overflow-hidden rounded-3xl border border-slate-200 bg-white">
        <ProductImage product={product} eager size={400} className="w-full aspect-square object-contain" />
      </a>
      <div>
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-slate-600">Half price with a friend</p>
        <h1 className="m-0 mt-1 text-2xl font-extrabold leading-tight">
          {team.viewerIsStarter
            ? `Your team for ${dollarsText(team.pricePerMember)}`
            : team.viewerIsMember
              ? `You're in ${team.starterName}'s team for ${dollarsText(team.pricePerMember)}`
              : `Join ${team.starterName}'s team for ${dollarsText(team.pricePerMember)}`}
        </h1>
        <p className="m-0 mt-2 text-lg">
          <a href={`/product/${product.id}`} className="font-semibold text-ink">
            {team.product.name}
          </a>{' '}
          <span className="text-slate-600 line-through">{dollarsText(team.product.price)}</span>
        </p>
        {/* The team's one size (issue 38): the starter chose it, a joiner gets the same. */}
        {team.sizeLabel && (
          <p className="m-0 mt-1 text-base font-bold" data-team-size="">
            {`Size ${team.sizeLabel}`}
          </p>
        )}
        {over && !team.viewerIsMember && (
          <p className="m-0 mt-2 text-sm font-semibold" role="status">
            {teamStateLine(team.status, team.expiresAt, now)}
          </p>
        )}
        <p className="m-0 mt-2 text-sm text-slate-600">
          Each member pays {dollarsText(team.pricePerMember)} plus {dollarsText(team.taxPerMember)} tax and gets their own, delivered free within 2-3 hours in
          Laguna Beach (92651). Your card is only held until the team is full; if nobody joins within 24 hours, the hold is released.
        </p>
        <ul className="m-0 mt-3 list-none p-0 text-sm" aria-label="Members">
          {team.members.map((member) => (
            <li key={`${member.role}-${member.name}`} data-member={member.role}>
              {`${member.name} (${member.you ? 'you, ' : ''}${member.role === 'starter' ? 'started the team' : 'joined'})`}
            </li>
          ))}
        </ul>
        {over && !team.viewerIsMember ? (
          <a href={`/product/${product.id}`} className="mt-4 inline-block rounded-xl bg-ink px-5 py-3 font-bold text-white no-underline hover:bg-ink-light">
            Start your own team
          </a>
        ) : (
          <Island name="TeamJoin" props={{ team, url, now }} />
        )}
      </div>
    </div>,
    { backHref: `/product/${product.id}` },
  );
});
