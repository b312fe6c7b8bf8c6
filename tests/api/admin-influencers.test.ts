import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { influencers, plays, products } from '../../src/db/schema.ts';
import { fivePicks } from '../helpers/games.ts';
import { afterRedirect, enter, noFile, player, png, postForm, seededStore, signedInAdmin, signedInUser, type Store } from '../helpers/admin-tools.ts';

/*
 * The admin's Influencers tab (/admin?tab=influencers), driven like a browser without JavaScript:
 * add, edit (avatar upload, followers per platform), retire and restore. A retired influencer is
 * refused by POST /api/plays but keeps its history; bad input changes nothing; only an admin who
 * passed the PIN gets in.
 */

const VALID = { name: 'Nora Tide', handle: '@noratide', category: 'Surf', engagementRate: '4.5', 'followers.instagram': '1.2M', 'followers.tiktok': '850K' };
const GONE = 'One of the chosen influencers does not exist.';

const everyone = (ctx: Store) => ctx.db.select().from(influencers).orderBy(asc(influencers.id)).all();
const byHandle = (ctx: Store, handle: string) => ctx.db.select().from(influencers).where(eq(influencers.handle, handle)).get();
const uploaded = (ctx: Store, url: string) => existsSync(join(ctx.uploadsDir, url.replace('/uploads/', '')));
const book = (ctx: Store) => ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
const pickable = async (ctx: Store) => ((await (await ctx.client().get('/api/influencers')).json()) as { handle: string }[]).map((i) => i.handle);

describe('add and edit', () => {
  test('add: the form, then the tab lists the new influencer, pickable, its avatar stored as an upload', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const blank = await admin.get('/admin/influencers/new');
    expect(blank.status).toBe(200);
    expect(await blank.text()).toMatch(/enctype="multipart\/form-data"/i); // the avatar travels as a file

    const { location, html, toast } = await afterRedirect(admin, await postForm(admin, '/admin/influencers/new', { ...VALID, avatar: png() }));
    expect(location).toBe('/admin?tab=influencers');
    expect(toast).toMatchObject({ title: 'Influencer added', description: 'Nora Tide can now be picked.' });
    const nora = byHandle(ctx, '@noratide')!;
    expect(nora).toMatchObject({ name: 'Nora Tide', category: 'Surf', engagementRate: 4.5, platforms: { instagram: '1.2M', tiktok: '850K' }, retiredAt: null });
    expect(nora.avatar).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    expect(uploaded(ctx, nora.avatar)).toBe(true);
    expect(html).toContain(`data-influencer-id="${nora.id}"`);
    expect(html).toContain('@noratide · Instagram 1.2M, TikTok 850K · 4.5% engagement');
    expect(await pickable(ctx)).toContain('@noratide');
  });

  test('edit: the form shows what is stored; a save changes fields and platforms, a new avatar replaces the old upload', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    await postForm(admin, '/admin/influencers/new', { ...VALID, avatar: png() });
    const nora = byHandle(ctx, '@noratide')!;
    const page = await (await admin.get(`/admin/influencers/${nora.id}`)).text();
    expect(page).toContain('value="Nora Tide"');
    expect(page).toContain('name="followers.tiktok" value="850K"');

    // Followers are rows of platform and text: a row emptied leaves the platform, a filled one joins.
    const edit = {
      ...VALID,
      name: 'Nora Swell',
      handle: 'noraswell',
      engagementRate: '0.1',
      'followers.tiktok': '',
      'followers.youtube': '2b',
      avatar: png('new.png'),
    };
    const { toast } = await afterRedirect(admin, await postForm(admin, `/admin/influencers/${nora.id}`, edit));
    expect(toast?.title).toBe('Influencer updated');
    const saved = byHandle(ctx, '@noraswell')!;
    expect(saved).toMatchObject({ id: nora.id, name: 'Nora Swell', engagementRate: 0.1, platforms: { instagram: '1.2M', youtube: '2B' } });
    expect(saved.avatar).not.toBe(nora.avatar);
    expect(uploaded(ctx, saved.avatar)).toBe(true);
    expect(uploaded(ctx, nora.avatar)).toBe(false);

    // No file chosen: the avatar stays.
    await afterRedirect(admin, await postForm(admin, `/admin/influencers/${nora.id}`, { ...edit, engagementRate: '20', avatar: noFile() }));
    expect(byHandle(ctx, '@noraswell')).toMatchObject({ engagementRate: 20, avatar: saved.avatar });
  });
});

describe('retire and restore', () => {
  test('a retired influencer is refused by POST /api/plays (400) and hidden, its past entries stay; Restore brings it back', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const marisol = byHandle(ctx, '@marisolsunset')!;
    const withMarisol = [
      String(marisol.id),
      ...fivePicks(ctx.db, 0)
        .filter((id) => id !== String(marisol.id))
        .slice(0, 4),
    ];
    const alice = await player(ctx, 'alice');
    const history = await enter(alice, book(ctx).id, withMarisol);

    const retired = await afterRedirect(admin, await postForm(admin, `/admin/influencers/${marisol.id}/retire`));
    expect(retired.toast?.title).toBe('Influencer retired');
    expect(byHandle(ctx, '@marisolsunset')!.retiredAt).toBe(ctx.clock.now());
    expect(retired.html).toContain(`action="/admin/influencers/${marisol.id}/restore"`);
    expect(await pickable(ctx)).not.toContain('@marisolsunset');

    const bob = await player(ctx, 'bob');
    const refused = await bob.client.post('/api/plays', { json: { productId: book(ctx).id, influencerIds: withMarisol } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(GONE);
    expect(ctx.db.select().from(plays).where(eq(plays.userId, bob.id)).all()).toEqual([]);
    // History is kept: the row stays, and so does Alice's entry with it.
    expect(ctx.db.select().from(plays).where(eq(plays.id, history.id)).get()).toMatchObject({ status: 'entered', influencerIds: withMarisol });

    const restored = await afterRedirect(admin, await postForm(admin, `/admin/influencers/${marisol.id}/restore`));
    expect(restored.toast?.title).toBe('Influencer restored');
    expect(byHandle(ctx, '@marisolsunset')!.retiredAt).toBeNull();
    expect(await pickable(ctx)).toContain('@marisolsunset');
    await enter(bob, book(ctx).id, withMarisol);
  });
});

describe('bad input', () => {
  test('every rule answers 400 (409 for a taken handle) with its message on the form, and nothing is stored', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const before = everyone(ctx);
    const cases: [Record<string, string>, number, string][] = [
      [{ ...VALID, name: 'N' }, 400, 'Name must be 2 to 60 characters.'],
      [{ ...VALID, handle: '@no way' }, 400, 'Handle must be @ followed by'],
      [{ ...VALID, engagementRate: '0.05' }, 400, 'Engagement rate must be a number from 0.1 to 20'],
      [{ ...VALID, engagementRate: '20.5' }, 400, 'Engagement rate must be a number from 0.1 to 20'],
      [{ ...VALID, engagementRate: '1e1' }, 400, 'Engagement rate must be a number from 0.1 to 20'],
      [{ ...VALID, engagementRate: '' }, 400, 'Engagement rate must be a number from 0.1 to 20'],
      [{ ...VALID, 'followers.instagram': 'lots' }, 400, 'Followers must be a number with an optional K, M or B'],
      [{ ...VALID, 'followers.instagram': '0' }, 400, 'Followers must be a number with an optional K, M or B'],
      [{ ...VALID, 'followers.instagram': '1.2.3M' }, 400, 'Followers must be a number with an optional K, M or B'],
      [{ ...VALID, 'followers.instagram': '2.4MM' }, 400, 'Followers must be a number with an optional K, M or B'],
      [{ ...VALID, 'followers.instagram': '-5K' }, 400, 'Followers must be a number with an optional K, M or B'],
      [{ ...VALID, 'followers.instagram': '11B' }, 400, 'Followers must be a number with an optional K, M or B'],
      [{ name: 'Nora Tide', handle: '@noratide', engagementRate: '3' }, 400, 'Give the followers of at least one platform.'],
      [{ ...VALID, handle: '@MarisolSunset' }, 409, 'Another influencer already has this handle.'],
    ];
    for (const [fields, status, message] of cases) {
      const response = await postForm(admin, '/admin/influencers/new', { ...fields, avatar: png() });
      expect(response.status, JSON.stringify(fields)).toBe(status);
      const html = await response.text();
      expect(html).toContain(message);
      expect(html).toContain('value="@'); // what was typed comes back in the form
    }
    const notAnImage = await postForm(admin, '/admin/influencers/new', { ...VALID, avatar: new File(['<script>'], 'face.png', { type: 'image/png' }) });
    expect(notAnImage.status).toBe(400);
    expect(await notAnImage.text()).toContain('The image must be a JPEG, PNG, WebP or GIF file.');

    // Edits: a bad rate and another's handle leave the row as it was.
    const marisol = byHandle(ctx, '@marisolsunset')!;
    expect((await postForm(admin, `/admin/influencers/${marisol.id}`, { ...VALID, engagementRate: '25' })).status).toBe(400);
    expect((await postForm(admin, `/admin/influencers/${marisol.id}`, { ...VALID, handle: '@KaiSurfsDaily' })).status).toBe(409);

    // Unknown ids: back to the tab with a toast.
    expect((await afterRedirect(admin, await admin.get('/admin/influencers/99999'))).toast?.title).toBe('Influencer not found');
    expect((await afterRedirect(admin, await postForm(admin, '/admin/influencers/99999', VALID))).toast?.title).toBe('Influencer not found');
    expect((await afterRedirect(admin, await postForm(admin, '/admin/influencers/99999/retire'))).toast?.title).toBe('Influencer not found');

    expect(everyone(ctx)).toEqual(before);
    expect(readdirSync(ctx.uploadsDir)).toEqual([]);
  });
});

describe('access', () => {
  test('signed out, a shopper, and an admin without the PIN: no tab, no form, no change', async () => {
    const ctx = await seededStore();
    const before = everyone(ctx);
    const marisol = before.find((i) => i.handle === '@marisolsunset')!;

    const visitor = ctx.client();
    const away = await visitor.get('/admin?tab=influencers');
    expect(away.status).toBe(302);
    expect(away.headers.get('location')).toStartWith('/auth?next=');
    expect((await postForm(visitor, '/admin/influencers/new', VALID)).headers.get('location')).toStartWith('/auth?next=');

    const shopper = signedInUser(ctx, 'shopper1').client;
    const denied = await shopper.get('/admin?tab=influencers');
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain('Access Denied');
    expect((await postForm(shopper, '/admin/influencers/new', VALID)).status).toBe(403);
    expect((await postForm(shopper, `/admin/influencers/${marisol.id}/retire`)).status).toBe(403);

    const noPin = await signedInAdmin(ctx, false);
    const pinScreen = await (await noPin.get('/admin?tab=influencers')).text();
    expect(pinScreen).toContain('Admin Authentication');
    expect(pinScreen).not.toContain('Add Influencer');
    for (const response of [
      await postForm(noPin, '/admin/influencers/new', VALID),
      await postForm(noPin, `/admin/influencers/${marisol.id}`, { ...VALID, handle: '@marisolsunset' }),
      await postForm(noPin, `/admin/influencers/${marisol.id}/retire`),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('Admin Authentication');
    }
    expect(everyone(ctx)).toEqual(before);
  });
});
