import { describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { influencers, payments, playExclusions, products } from '../../src/db/schema.ts';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import { shopper } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';

/*
 * Issue 27, item 4: a self-exclusion follows the person. Sally excludes herself, deletes her
 * account and registers again; an account that shares her e-mail, her phone or her card (any
 * one of them) is refused every game, paid or free, with the words Sally herself was given,
 * before any hold, until her period ends.
 */

const DAY = 24 * 60 * 60_000;

async function store() {
  const ctx = await testApp({}, { seededAt: Date.UTC(2026, 10, 21, 18, 10) });
  const picks = ctx.db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .limit(5)
    .all()
    .map((i) => String(i.id));
  const playable = ctx.db.select().from(products).where(eq(products.playEnabled, true)).all();
  return { ...ctx, picks, productId: playable[0]!.id };
}
type Store = Awaited<ReturnType<typeof store>>;

interface Person {
  email: string;
  phone: string;
  card: string;
}
const SALLY: Person = { email: 'sally@example.com', phone: '949-555-0142', card: '4111111111111111' };
const STRANGER: Person = { email: 'kim@example.com', phone: '714-555-0199', card: '5105105105105100' };

function cardToken(number: string): string {
  const made = testTokenForCard(number, 12, 2030, '123');
  if ('error' in made) throw new Error(made.error);
  return made.token;
}

/** Registers through the API, fills in the profile with a card saved at the gateway, and consents to play. */
async function player(s: Store, username: string, who: Person): Promise<{ client: TestClient; id: number }> {
  const made = await shopper(s, username, { withProfile: false, password: 'beach-day-1' });
  const saved = await made.client.request('PATCH', '/api/user/profile', {
    json: {
      name: 'Sally Shore',
      email: who.email,
      phone: who.phone,
      address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
      paymentMethod: { type: 'card', sourceId: cardToken(who.card) },
    },
  });
  expect(saved.status).toBe(200);
  expect((await made.client.post('/api/user/play-consent', { json: { adult: true, acceptRules: true } })).status).toBe(200);
  return made;
}

const pick = (s: Store, client: TestClient) => client.post('/api/plays', { json: { productId: s.productId, influencerIds: s.picks } });
const pay = (s: Store, client: TestClient) => client.post('/api/payments', { json: { productId: s.productId, amount: 1, type: 'play' } });
/** Sessions last 30 days: after a long break she signs in again. */
async function signIn(s: Store, username: string): Promise<TestClient> {
  const client = s.client();
  const r = await client.post('/api/login', { json: { username, password: 'beach-day-1' } });
  if (r.status !== 200) console.log(await r.text());
  expect(r.status).toBe(200);
  return client;
}
const holdsOf = (s: Store, userId: number) => s.db.select().from(payments).where(eq(payments.userId, userId)).all();

/** Sally excludes herself for `period`, is refused, and deletes her account; the refusal's words. */
async function sallyExcludesAndLeaves(s: Store, period: '30d' | '6m' | 'permanent'): Promise<string> {
  const sally = await player(s, 'sally', SALLY);
  expect((await sally.client.post('/api/user/self-exclusion', { json: { period } })).status).toBe(200);
  const refused = await pick(s, sally.client);
  expect(refused.status).toBe(403);
  const { message } = await refused.json();
  expect((await sally.client.post('/api/user/delete', { json: { password: 'beach-day-1' } })).status).toBe(200);
  return message;
}

async function expectRefused(s: Store, made: { client: TestClient; id: number }, message: string) {
  for (const response of [await pick(s, made.client), await pay(s, made.client)]) {
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message, code: 'SELF_EXCLUDED' });
  }
  expect(holdsOf(s, made.id)).toHaveLength(0);
  expect(s.gateway.payments()).toHaveLength(0);
}

describe('the exclusion outlives the account', () => {
  for (const [shared, who] of [
    ['the same e-mail (other case, a +tag)', { ...STRANGER, email: ' Sally+games@EXAMPLE.com' }],
    ['the same phone (written another way)', { ...STRANGER, phone: '+1 (949) 555 0142' }],
    ['the same card', { ...STRANGER, card: SALLY.card }],
  ] as const) {
    test(`a new account with only ${shared} is refused both entry paths with Sally's own words; no hold`, async () => {
      const s = await store();
      const message = await sallyExcludesAndLeaves(s, '30d');
      expect(message).toMatch(/^You have excluded yourself from games until \w+ \d+, \d{4}, so you cannot enter\.$/);
      await expectRefused(s, await player(s, 'sally', who), message);
      // Her new account's Play tab and the API say so too.
      const again = await player(s, 'sally_too', who);
      const settings = await (await again.client.get('/api/user/play-settings')).json();
      expect(settings).toMatchObject({ exclusionPeriod: '30d', permanentlyExcluded: false });
      expect(settings.excludedUntil).toBe(s.clock.now() + 30 * DAY);
    });
  }

  test('a new account sharing nothing with her plays; shopping stays open to the excluded one', async () => {
    const s = await store();
    await sallyExcludesAndLeaves(s, 'permanent');
    const kim = await player(s, 'kim', STRANGER);
    expect((await pick(s, kim.client)).status).toBe(201);
    expect((await pay(s, kim.client)).status).toBe(201);
    const back = await player(s, 'sally', SALLY);
    expect((await back.client.get('/api/products')).status).toBe(200);
  });

  test('an account already open with her card is excluded the moment she excludes herself', async () => {
    const s = await store();
    const sally = await player(s, 'sally', SALLY);
    const second = await player(s, 'sally_second', { ...STRANGER, card: SALLY.card });
    expect((await sally.client.post('/api/user/self-exclusion', { json: { period: 'permanent' } })).status).toBe(200);
    await expectRefused(s, second, 'You have excluded yourself from games permanently, so you cannot enter.');
  });

  test('a phone she adds while excluded is kept too, and the record holds hashes only, with no account', async () => {
    const s = await store();
    const sally = await player(s, 'sally', SALLY);
    await sally.client.post('/api/user/self-exclusion', { json: { period: '6m' } });
    const { message } = await (await pick(s, sally.client)).json();
    expect((await sally.client.request('PATCH', '/api/user/profile', { json: { phone: '949-555-0177' } })).status).toBe(200);
    expect((await sally.client.post('/api/user/delete', { json: { password: 'beach-day-1' } })).status).toBe(200);
    const rows = s.db.select().from(playExclusions).all();
    expect(rows.map((r) => r.kind).sort()).toEqual(['card', 'email', 'phone', 'phone']);
    const stored = JSON.stringify(s.db.$client.query('select * from play_exclusions').all());
    // Hex digests only (a digit run like '0142' could occur in one by chance; letters outside hex cannot).
    for (const row of rows) expect(row.identifierHash).toMatch(/^[0-9a-f]{64}$/);
    for (const readable of ['sally', '@', 'VISA', 'example']) expect(stored).not.toContain(readable);
    expect(Object.keys(s.db.$client.query('select * from play_exclusions').get() as object).sort()).toEqual([
      'created_at',
      'excluded_until',
      'exclusion_period',
      'id',
      'identifier_hash',
      'kind',
    ]);
    await expectRefused(s, await player(s, 'sally', { ...STRANGER, phone: '9495550177' }), message);
  });
});

describe('for its period only', () => {
  for (const [period, lastRefusedDay, firstFreeDay] of [
    ['30d', 29, 31],
    ['6m', 180, 185],
    ['permanent', 300, null],
  ] as const) {
    test(`${period}: refused until the end, free after it`, async () => {
      const s = await store();
      const message = await sallyExcludesAndLeaves(s, period);
      const start = s.clock.now();
      await player(s, 'sally', SALLY);
      s.clock.set(start + lastRefusedDay * DAY);
      expect((await pick(s, await signIn(s, 'sally'))).status).toBe(403);
      if (firstFreeDay === null) {
        expect(message).toBe('You have excluded yourself from games permanently, so you cannot enter.');
        return;
      }
      s.clock.set(start + firstFreeDay * DAY);
      const later = await signIn(s, 'sally');
      expect((await pick(s, later)).status).toBe(201);
      expect((await pay(s, later)).status).toBe(201);
    });
  }
});
