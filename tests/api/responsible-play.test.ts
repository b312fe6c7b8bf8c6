import { describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { influencers, payments, playerSettings, plays, products, users } from '../../src/db/schema.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { completeProfile } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';

/*
 * Responsible play on every entry path (POST /api/plays and POST /api/payments): 18+ and the
 * rules once, a daily entry limit, self-exclusion; each refusal is a clear 4xx before any pick
 * is stored or any card is touched. Also the profile's Play tab and the Play page.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

async function store(env: Record<string, string> = {}) {
  const ctx = await testApp(env, { seededAt: Date.UTC(2026, 10, 21, 18, 10) });
  const user = ctx.db.insert(users).values({ username: 'player_one', passwordHash: 'x', createdAt: ctx.clock.now() }).returning().get();
  completeProfile(ctx, user.id);
  const token = generateSessionToken();
  createSession(ctx.db, ctx.clock, token, user.id);
  const client = ctx.client();
  client.cookies.set('csa_session', token);
  const picks = ctx.db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .limit(5)
    .all()
    .map((i) => String(i.id));
  const playable = ctx.db.select().from(products).where(eq(products.playEnabled, true)).all();
  return { ...ctx, userId: user.id, client, picks, playable };
}
type Store = Awaited<ReturnType<typeof store>>;

/** Sessions last 30 days: months later the player signs in again. */
function signInAgain(s: Store) {
  const token = generateSessionToken();
  createSession(s.db, s.clock, token, s.userId);
  s.client.cookies.set('csa_session', token);
}

const consent = (client: TestClient, body: unknown = { adult: true, acceptRules: true }) => client.post('/api/user/play-consent', { json: body });
const pick = (s: Store, productId = s.playable[0]!.id) => s.client.post('/api/plays', { json: { productId, influencerIds: s.picks } });
const pay = (s: Store, productId = s.playable[0]!.id) => s.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } });
const holds = (s: Store) => s.db.select().from(payments).where(eq(payments.userId, s.userId)).all();
const playsOf = (s: Store) => s.db.select().from(plays).where(eq(plays.userId, s.userId)).all();

describe('consent: 18 or older and the official rules, once', () => {
  test('without it both entry paths answer 403 PLAY_CONSENT_REQUIRED; nothing is stored or charged', async () => {
    const s = await store();
    for (const response of [await pick(s), await pay(s)]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        message: 'Please confirm you are 18 or older and accept the official rules before you play.',
        code: 'PLAY_CONSENT_REQUIRED',
      });
    }
    expect(playsOf(s)).toHaveLength(0);
    expect(holds(s)).toHaveLength(0);
    expect(s.gateway.payments()).toHaveLength(0);
  });

  test('bad answers: 400 with fields and nothing saved; true and true: saved once, then entries work', async () => {
    const s = await store();
    for (const body of [
      {},
      { adult: true },
      { acceptRules: true },
      { adult: 'true', acceptRules: true },
      { adult: 1, acceptRules: 1 },
      { adult: false, acceptRules: true },
      [],
      'yes',
    ]) {
      const response = await consent(s.client, body);
      expect(response.status).toBe(400);
      expect(s.db.select().from(playerSettings).all()).toHaveLength(0);
    }
    const partial = await (await consent(s.client, { adult: true })).json();
    expect(partial.fields).toEqual({ acceptRules: 'Please accept the official rules to play.' });
    expect((await consent(s.client)).status).toBe(200);
    const first = s.db.select().from(playerSettings).get()!.consentedAt;
    s.clock.advance(MINUTE);
    expect(await (await consent(s.client)).json()).toMatchObject({ consented: true, consentedAt: first });
    expect((await pick(s)).status).toBe(201);
    expect((await pay(s)).status).toBe(201);
  });

  test('signed out: 401 on every settings call', async () => {
    const s = await store();
    const anonymous = (await testApp()).client();
    for (const [method, path, json] of [
      ['POST', '/api/user/play-consent', { adult: true, acceptRules: true }],
      ['PUT', '/api/user/play-limits', { dailyEntryLimit: 3 }],
      ['POST', '/api/user/self-exclusion', { period: '30d' }],
      ['GET', '/api/user/play-settings', undefined],
    ] as const) {
      expect((await anonymous.request(method, path, json ? { json } : {})).status).toBe(401);
    }
    expect(s.db.select().from(playerSettings).all()).toHaveLength(0);
  });
});

describe('the daily entry limit', () => {
  test('the store default (DAILY_ENTRY_LIMIT) caps entries in any 24 hours; the next one is 403 DAILY_LIMIT_REACHED on both paths and never charged', async () => {
    const s = await store({ DAILY_ENTRY_LIMIT: '2' });
    await consent(s.client);
    for (const product of s.playable.slice(0, 2)) {
      const picked = await pick(s, product.id);
      expect([picked.status, picked.status === 201 ? '' : (await picked.json()).message]).toEqual([201, '']);
      expect((await pay(s, product.id)).status).toBe(201);
    }
    const third = s.playable[2]!.id;
    const refused = await pick(s, third);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'You have reached your daily limit of 2 entries. You can play again once an entry is more than 24 hours old.',
      code: 'DAILY_LIMIT_REACHED',
    });
    expect(playsOf(s)).toHaveLength(2);
    expect(s.gateway.payments()).toHaveLength(2);
    // Once the entries are more than 24 hours old, one more is allowed.
    s.clock.advance(DAY + 1);
    expect((await pick(s, third)).status).toBe(201);
  });

  test('a player lowers their own limit (1 to the store limit); a pick made before the limit was reached cannot then be paid', async () => {
    const s = await store();
    await consent(s.client);
    for (const bad of [0, 11, 2.5, '3', null, -1, 1e9]) {
      const response = await s.client.request('PUT', '/api/user/play-limits', { json: { dailyEntryLimit: bad } });
      expect(response.status).toBe(400);
      expect((await response.json()).fields.dailyEntryLimit).toBe('Choose a daily entry limit from 1 to 10.');
    }
    expect(s.db.select().from(playerSettings).get()!.dailyEntryLimit).toBeNull();
    expect(await (await s.client.request('PUT', '/api/user/play-limits', { json: { dailyEntryLimit: 1 } })).json()).toMatchObject({
      dailyEntryLimit: 1,
      maxDailyEntryLimit: 10,
    });
    expect((await pick(s, s.playable[0]!.id)).status).toBe(201);
    expect((await pick(s, s.playable[1]!.id)).status).toBe(201);
    expect((await pay(s, s.playable[1]!.id)).status).toBe(201);
    const second = await pay(s, s.playable[0]!.id);
    expect(second.status).toBe(403);
    expect((await second.json()).code).toBe('DAILY_LIMIT_REACHED');
    expect(holds(s)).toHaveLength(1);
  });
});

describe('self-exclusion', () => {
  for (const [period, days] of [
    ['30d', 30],
    ['6m', 181],
    ['permanent', 100_000],
  ] as const) {
    test(`${period}: both entry paths answer 403 SELF_EXCLUDED at once and until it ends; never charged`, async () => {
      const s = await store();
      await consent(s.client);
      expect((await pick(s)).status).toBe(201);
      const view = await (await s.client.post('/api/user/self-exclusion', { json: { period } })).json();
      expect(view).toMatchObject({ exclusionPeriod: period, permanentlyExcluded: period === 'permanent' });
      for (const response of [await pick(s), await pay(s)]) {
        expect(response.status).toBe(403);
        const body = await response.json();
        expect(body.code).toBe('SELF_EXCLUDED');
        expect(body.message).toMatch(period === 'permanent' ? /permanently/ : /until \w+ \d+, \d{4}/);
      }
      expect(holds(s)).toHaveLength(0);
      s.clock.advance((days - 1) * DAY);
      signInAgain(s);
      expect((await pick(s)).status).toBe(403);
      if (period !== 'permanent') {
        s.clock.advance(2 * DAY);
        signInAgain(s);
        expect((await pick(s)).status).toBe(201);
      }
    });
  }

  test('it can be lengthened, never shortened; bad periods are 400 and change nothing', async () => {
    const s = await store();
    for (const period of ['1d', '', 30, null, 'PERMANENT']) {
      expect((await s.client.post('/api/user/self-exclusion', { json: { period } })).status).toBe(400);
    }
    expect(s.db.select().from(playerSettings).all()).toHaveLength(0);
    const long = await (await s.client.post('/api/user/self-exclusion', { json: { period: '6m' } })).json();
    const shorter = await (await s.client.post('/api/user/self-exclusion', { json: { period: '30d' } })).json();
    expect(shorter.excludedUntil).toBe(long.excludedUntil);
    expect(shorter.exclusionPeriod).toBe('6m');
    const forever = await (await s.client.post('/api/user/self-exclusion', { json: { period: 'permanent' } })).json();
    expect(forever.permanentlyExcluded).toBe(true);
  });
});

describe('the pages', () => {
  test('the profile Play tab: the limit and a break, as forms that post (no JavaScript needed)', async () => {
    const s = await store();
    const tab = await (await s.client.get('/profile?tab=play')).text();
    expect(tab).toContain('action="/profile/play-limit"');
    expect(tab).toContain('action="/profile/self-exclusion"');
    const saved = await s.client.post('/profile/play-limit', { form: { dailyEntryLimit: '4' } });
    expect(saved.status).toBe(303);
    expect(s.db.select().from(playerSettings).get()!.dailyEntryLimit).toBe(4);
    const refused = await s.client.post('/profile/play-limit', { form: { dailyEntryLimit: '0x10' } });
    expect(refused.status).toBe(303);
    expect(s.db.select().from(playerSettings).get()!.dailyEntryLimit).toBe(4);
    // Without the confirmation box nothing happens.
    await s.client.post('/profile/self-exclusion', { form: { period: '30d' } });
    expect(s.db.select().from(playerSettings).get()!.excludedUntil).toBeNull();
    await s.client.post('/profile/self-exclusion', { form: { period: '30d', confirm: 'yes' } });
    expect(s.db.select().from(playerSettings).get()!.excludedUntil).toBe(s.clock.now() + 30 * DAY);
    expect(await (await s.client.get('/profile?tab=play')).text()).toContain('You have excluded yourself from games until');
  });

  test('the Play page: the consent dialog for a new player, the reason instead of Join for an excluded one', async () => {
    const s = await store();
    const productId = s.playable[0]!.id;
    const fresh = await (await s.client.get(`/play/${productId}`)).text();
    expect(fresh).toContain('"play":{"consented":false,"blocked":null}');
    await consent(s.client);
    await s.client.post('/api/user/self-exclusion', { json: { period: 'permanent' } });
    const excluded = await (await s.client.get(`/play/${productId}`)).text();
    expect(excluded).toContain('You have excluded yourself from games permanently, so you cannot enter.');
    expect(excluded).toContain('data-blocked');
    expect((await s.client.get('/rules')).status).toBe(200);
  });
});
