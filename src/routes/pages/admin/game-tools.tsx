import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { games, products } from '../../../db/schema.ts';
import { DomainError } from '../../../domain/errors.ts';
import { cancelGame } from '../../../domain/games/lifecycle.ts';
import { createInfluencer, findInfluencer, setRetired, updateInfluencer } from '../../../domain/influencers-admin.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { renderPage, type PageStatus } from '../../../http/render.tsx';
import { InfluencerForm, influencerFormValues, type InfluencerFormValues } from './influencers.tsx';

/*
 * The admin's game tools (issue 10): the influencer form (add, edit, retire, restore) and Cancel
 * game with its confirmation step. Mounted behind the admin gate (role and PIN) in index.tsx.
 */

const idOf = (c: AppContext) => {
  const raw = c.req.param('id') ?? '';
  return /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
};

async function formOf(c: AppContext): Promise<{ raw: InfluencerFormValues; avatar: File | null }> {
  const body = ((await c.req.parseBody().catch(() => ({}))) ?? {}) as Record<string, unknown>;
  const raw: InfluencerFormValues = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') raw[key] = value;
  return { raw, avatar: body.avatar instanceof File ? body.avatar : null };
}

function showForm(c: AppContext, action: string, values: InfluencerFormValues, errors: Record<string, string>, avatar: string, status: PageStatus = 200) {
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

function notFound(c: AppContext, what: string) {
  setFlash(c, { title: `${what} not found`, description: `There is no such ${what.toLowerCase()}.`, variant: 'destructive' });
  return c.redirect(`/admin?tab=${what === 'Game' ? 'games' : 'influencers'}`, 303);
}

export const adminGameTools = new Hono<AppEnv>()
  .get('/admin/influencers/new', (c) => showForm(c, '/admin/influencers/new', influencerFormValues(), {}, ''))
  .post('/admin/influencers/new', async (c) => {
    const { raw, avatar } = await formOf(c);
    try {
      const person = await createInfluencer(c.var.deps.db, c.var.deps.clock, c.var.deps.images, raw, avatar);
      setFlash(c, { title: 'Influencer added', description: `${person.name} can now be picked.` });
      return c.redirect('/admin?tab=influencers', 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return showForm(c, '/admin/influencers/new', raw, error.fields ?? { _: error.message }, '', formStatus(error));
    }
  })
  .get('/admin/influencers/:id{[0-9]+}', (c) => {
    try {
      const person = findInfluencer(c.var.deps.db, idOf(c));
      return showForm(c, `/admin/influencers/${person.id}`, influencerFormValues(person), {}, person.avatar);
    } catch {
      return notFound(c, 'Influencer');
    }
  })
  .post('/admin/influencers/:id{[0-9]+}', async (c) => {
    const { raw, avatar } = await formOf(c);
    const id = idOf(c);
    try {
      const person = await updateInfluencer(c.var.deps.db, c.var.deps.images, id, raw, avatar);
      setFlash(c, { title: 'Influencer updated', description: `${person.name} was saved. Games already started keep what they began with.` });
      return c.redirect('/admin?tab=influencers', 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === 404) return notFound(c, 'Influencer');
      return showForm(c, `/admin/influencers/${id}`, raw, error.fields ?? { _: error.message }, findInfluencer(c.var.deps.db, id).avatar, formStatus(error));
    }
  })
  .post('/admin/influencers/:id{[0-9]+}/:action{retire|restore}', (c) => {
    try {
      const person = setRetired(c.var.deps.db, c.var.deps.clock, idOf(c), c.req.param('action') === 'retire');
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
    const game = c.var.deps.db
      .select()
      .from(games)
      .where(eq(games.id, idOf(c)))
      .get();
    if (!game) return notFound(c, 'Game');
    const product = c.var.deps.db.select().from(products).where(eq(products.id, game.productId)).get();
    const open = game.status === 'waiting' || game.status === 'active';
    return renderPage(
      c,
      { title: 'Cancel game', path: '/admin', noindex: true },
      <div className="mx-auto max-w-md pt-12">
        <form method="post" action={`/admin/games/${game.id}/cancel`} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="m-0 text-xl font-bold">{open ? `Cancel game #${game.id}?` : `Game #${game.id} is ${game.status}`}</h1>
          <p className="m-0 mt-1 font-semibold">{product ? `${product.brand} ${product.model}` : ''}</p>
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
    const { db, clock, gateway, metrics, config } = c.var.deps;
    const id = idOf(c);
    if (!db.select({ id: games.id }).from(games).where(eq(games.id, id)).get()) return notFound(c, 'Game');
    const canceled = await cancelGame({ db, clock, gateway, metrics, dailyEntryLimit: config.dailyEntryLimit }, id, {
      reason: 'Canceled by the store.',
      message: (brand) => `The store canceled the game for ${brand}. Your $1 hold was released; nothing was charged.`,
    });
    setFlash(
      c,
      canceled
        ? { title: 'Game canceled', description: `Game #${id} was canceled; every hold is being released and the players were told.` }
        : { title: 'Not canceled', description: `Game #${id} is no longer waiting or live.`, variant: 'destructive' },
    );
    return c.redirect('/admin?tab=games', 303);
  });
