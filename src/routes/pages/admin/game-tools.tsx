import { Hono } from 'hono';
import type * as z from 'zod/mini';
import { gameForCancel } from '../../../domain/games/admin-games.ts';
import { DomainError } from '../../../domain/errors.ts';
import { cancelGame } from '../../../domain/games/cancel.ts';
import { createInfluencer, findInfluencer, setRetired, updateInfluencer } from '../../../domain/games/influencers-admin.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { gameDeps } from '../../../http/domain-deps.ts';
import { formBody } from '../../../http/request.ts';
import { influencerFormPost } from '../../../shared/schemas/influencer.ts';
import { renderPage } from '../../../http/render.tsx';
import type { PageStatus } from '../../../http/shared-page.ts';
import { InfluencerForm, influencerFormValues, type InfluencerFormValues } from './influencers.tsx';

/*
 * The admin's game tools (issue 10): the influencer form (add, edit, retire, restore) and Cancel
 * game with its confirmation step. Mounted behind the admin gate (role and PIN) in index.tsx.
 */

const idOf = <E extends AppEnv>(c: AppContext<E>) => {
  const raw = c.req.param('id') ?? '';
  return /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
};

type InfluencerPost = z.output<typeof influencerFormPost>;

/** The posted text fields, as the form shows them again, and the avatar file if one was chosen. */
function formOf(post: InfluencerPost): { raw: InfluencerFormValues; avatar: File | null } {
  const { avatar, ...fields } = post;
  const raw = Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return { raw, avatar: avatar instanceof File ? avatar : null };
}

/** A post that is not the form's shape (a repeated field, a file where text belongs) is the form again with a 400. */
const influencerPost = (action: (c: AppContext) => string) =>
  formBody(influencerFormPost, (c, error) => showForm(c, action(c), {}, { _: error.message }, '', 400));

function showForm<E extends AppEnv>(
  c: AppContext<E>,
  action: string,
  values: InfluencerFormValues,
  errors: Record<string, string>,
  avatar: string,
  status: PageStatus = 200,
) {
  return renderPage(
    c,
    { title: action.endsWith('/new') ? 'Add Influencer' : 'Edit Influencer', path: '/admin', noindex: true },
    <InfluencerForm action={action} values={values} errors={errors} avatar={avatar} />,
    {
      status,
      backHref: '/admin?tab=influencers',
    },
  );
}

/** As the product forms: a taken handle is 409, an oversize avatar 413, anything else the form's 400. */
const formStatus = (error: DomainError): PageStatus => (error.status === 409 || error.status === 413 ? error.status : 400);

function notFound<E extends AppEnv>(c: AppContext<E>, what: string) {
  setFlash(c, { title: `${what} not found`, description: `There is no such ${what.toLowerCase()}.`, variant: 'destructive' });
  return c.redirect(`/admin?tab=${what === 'Game' ? 'games' : 'influencers'}`, 303);
}

export const adminGameTools = new Hono<AppEnv>()
  .get('/admin/influencers/new', (c) => showForm(c, '/admin/influencers/new', influencerFormValues(), {}, ''))
  .post(
    '/admin/influencers/new',
    influencerPost(() => '/admin/influencers/new'),
    async (c) => {
      const { raw, avatar } = formOf(c.req.valid('form'));
      try {
        const person = await createInfluencer(c.env.deps.db, c.env.deps.clock, c.env.deps.images, raw, avatar);
        setFlash(c, { title: 'Influencer added', description: `${person.name} can now be picked.` });
        return c.redirect('/admin?tab=influencers', 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return showForm(c, '/admin/influencers/new', raw, error.fields ?? { _: error.message }, '', formStatus(error));
      }
    },
  )
  .get('/admin/influencers/:id{[0-9]+}', (c) => {
    try {
      const person = findInfluencer(c.env.deps.db, idOf(c));
      return showForm(c, `/admin/influencers/${person.id}`, influencerFormValues(person), {}, person.avatar);
    } catch {
      return notFound(c, 'Influencer');
    }
  })
  .post(
    '/admin/influencers/:id{[0-9]+}',
    influencerPost((c) => `/admin/influencers/${idOf(c)}`),
    async (c) => {
      const { raw, avatar } = formOf(c.req.valid('form'));
      const id = idOf(c);
      try {
        const person = await updateInfluencer(c.env.deps.db, c.env.deps.images, id, raw, avatar);
        setFlash(c, { title: 'Influencer updated', description: `${person.name} was saved. Games already started keep what they began with.` });
        return c.redirect('/admin?tab=influencers', 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.status === 404) return notFound(c, 'Influencer');
        return showForm(c, `/admin/influencers/${id}`, raw, error.fields ?? { _: error.message }, findInfluencer(c.env.deps.db, id).avatar, formStatus(error));
      }
    },
  )
  .post('/admin/influencers/:id{[0-9]+}/:action{retire|restore}', (c) => {
    try {
      const person = setRetired(c.env.deps.db, c.env.deps.clock, idOf(c), c.req.param('action') === 'retire');
      setFlash(
        c,
        person.retiredAt
          ? { title: 'Influencer retired', description: `${person.name} can no longer be picked; past games keep them.` }
          : { title: 'Influencer restored', description: `${person.name} can be picked again.` },
      );
    } catch {
      return notFound(c, 'Influencer');
    }
    return c.redirect('/admin?tab=influencers', 303);
  })
  .get('/admin/games/:id{[0-9]+}/cancel', (c) => {
    const game = gameForCancel(c.env.deps.db, idOf(c));
    if (!game) return notFound(c, 'Game');
    const open = game.status === 'waiting' || game.status === 'active';
    return renderPage(
      c,
      { title: 'Cancel game', path: '/admin', noindex: true },
      <div className="mx-auto max-w-md pt-12">
        <form method="post" action={`/admin/games/${game.id}/cancel`} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="m-0 text-xl font-bold">{open ? `Cancel game #${game.id}?` : `Game #${game.id} is ${game.status}`}</h1>
          <p className="m-0 mt-1 font-semibold">{game.productName ?? ''}</p>
          <p className="mt-2 text-slate-600">
            {open
              ? `Every player's $1 hold is released and nobody is charged.${game.status === 'active' ? ' The unit reserved for the winner goes back into stock.' : ''} Players are told. This cannot be undone.`
              : 'Only waiting and live games can be canceled.'}
          </p>
          <div className="mt-6 flex justify-end gap-3">
            <a href="/admin?tab=games" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-bold text-ink no-underline">
              Back
            </a>
            {open && (
              <button type="submit" className="rounded-lg border-0 bg-red-600 px-4 py-2 text-sm font-bold text-white cursor-pointer">
                Cancel game
              </button>
            )}
          </div>
        </form>
      </div>,
      { backHref: '/admin?tab=games' },
    );
  })
  .post('/admin/games/:id{[0-9]+}/cancel', async (c) => {
    const { db } = c.env.deps;
    const id = idOf(c);
    if (!gameForCancel(db, id)) return notFound(c, 'Game');
    const canceled = await cancelGame(gameDeps(c), id, {
      reason: 'Canceled by the store.',
      message: (brand, sized) => `The store canceled the game for ${brand}${sized}. Your $1 hold was released; nothing was charged.`,
    });
    setFlash(
      c,
      canceled
        ? { title: 'Game canceled', description: `Game #${id} was canceled; every hold is being released and the players were told.` }
        : { title: 'Not canceled', description: `Game #${id} is no longer waiting or live.`, variant: 'destructive' },
    );
    return c.redirect('/admin?tab=games', 303);
  });
