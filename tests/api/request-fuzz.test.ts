import { describe, expect, test } from 'bun:test';
import { getTableName, is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../../src/db/schema.ts';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { completeProfile, giveConsent } from '../helpers/actors.ts';
import { TEST_PIN, type testApp, seededApp } from '../helpers/app.ts';

/*
 * Issue 11: generated bad bodies for every JSON endpoint, sent by a shopper with a complete
 * profile and by an admin who passed the PIN. No answer is a 5xx, and a refused request (4xx)
 * changes no row of any table (compared by a digest of every table before and after).
 */

const ENDPOINTS: [method: string, path: string][] = [
  ['POST', '/api/register'],
  ['POST', '/api/login'],
  ['POST', '/api/cart'],
  ['PATCH', '/api/cart/1'],
  ['POST', '/api/checkout'],
  ['POST', '/api/orders'],
  ['PATCH', '/api/user/profile'],
  ['POST', '/api/plays'],
  ['POST', '/api/payments'],
  ['POST', '/api/user/play-consent'],
  ['PUT', '/api/user/play-limits'],
  ['POST', '/api/user/self-exclusion'],
  ['POST', '/api/business-applications'],
  ['POST', '/api/coach/signups'],
  ['POST', '/api/admin/pin'],
  ['POST', '/api/admin/orders/1/status'],
  ['POST', '/api/admin/payments/1/resolve'],
  ['POST', '/api/games/1/donate'],
  ['POST', '/api/notifications/1/read'],
];

const KEYS = [
  'productId',
  'quantity',
  'influencerIds',
  'amount',
  'type',
  'status',
  'action',
  'pin',
  'period',
  'dailyEntryLimit',
  'adult',
  'acceptRules',
  'email',
  'username',
  'password',
  'paymentMethod',
  'paymentToken',
  'summary',
  'shipping',
  'customer',
  'customerInfo',
  'items',
  'name',
  'address',
  '__proto__',
  'constructor',
];

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const value = (depth: number): unknown => {
    const kind = pick(['number', 'string', 'bool', 'null', 'array', 'object', 'weird'] as const);
    if (kind === 'number') return pick([0, -1, 1, 1.5, 1e308, -0, 2 ** 53 + 1, 5, 99, 100]);
    if (kind === 'string')
      return pick(['', ' ', '1', '0x10', '1e3', 'Infinity', 'NaN', '<script>', '\u0000', '\r\n', 'play', 'completed', 'a'.repeat(300), '/%09/evil.example']);
    if (kind === 'bool') return next() < 0.5;
    if (kind === 'null') return null;
    if (kind === 'weird') return pick<unknown>([{}, [], [[]], { toString: 1 }]);
    if (depth > 2) return 'deep';
    if (kind === 'array') return Array.from({ length: Math.floor(next() * 7) }, () => value(depth + 1));
    return body(depth + 1);
  };
  const body = (depth = 0): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const n = Math.floor(next() * 5);
    for (let i = 0; i < n; i++) Object.defineProperty(out, pick(KEYS), { value: value(depth), enumerable: true, configurable: true, writable: true });
    return out;
  };
  const raw = (): string => {
    const shape = next();
    if (shape < 0.08) return pick(['', '{', 'null', '[]', '"x"', '1', '{"a":}', '[1,2]']);
    return JSON.stringify(body());
  };
  return { raw, pick };
}

/** Every row of every table, a digest for each; a refused attempt counted by a rate limit (rate_limit_events) is the limit working, not a change. */
function digests(db: Awaited<ReturnType<typeof testApp>>['db']): Map<string, string> {
  const names = (Object.values(schema) as unknown[])
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map((table) => getTableName(table))
    .filter((name) => name !== 'rate_limit_events');
  // Raw rows through SQLite's cached statements: a thousand dumps of every table, so Drizzle's mapping is left out.
  return new Map(names.map((name) => [name, Bun.hash(JSON.stringify(db.$client.query(`select * from "${name}"`).values())).toString(36)]));
}

/** The tables whose rows differ between two digests, but those in `except`. */
function changed(before: Map<string, string>, after: Map<string, string>, except: string[] = []): string[] {
  return [...after].filter(([name, digest]) => !except.includes(name) && before.get(name) !== digest).map(([name]) => name);
}

describe('fuzz: bad bodies on every JSON endpoint', () => {
  test('600 generated requests: no 5xx, and no refused request changes a row', async () => {
    const ctx = await seededApp();
    await bootstrapAdmin(ctx);
    const shopper = ctx.client();
    const empty = digests(ctx.db);
    expect((await shopper.post('/api/register', { json: { username: 'fuzzer', password: 'secret-pass' } })).status).toBe(201);
    // The instrument itself: a write it cannot see would make every comparison below pass.
    expect(changed(empty, digests(ctx.db))).toContain('users');
    const shopperId = ctx.db
      .select()
      .from(schema.users)
      .all()
      .find((u) => u.username === 'fuzzer')!.id;
    completeProfile(ctx, shopperId);
    giveConsent(ctx, shopperId);
    const admin = ctx.client();
    expect((await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
    expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);

    const gen = generator(20261123);
    const failures: string[] = [];
    let refused = 0;
    // Nothing writes between one request's after and the next one's before: one dump serves both.
    let before = digests(ctx.db);
    for (let i = 0; i < 600; i++) {
      const [method, path] = gen.pick(ENDPOINTS);
      const client = path.startsWith('/api/admin') ? admin : shopper;
      const body = gen.raw();
      const response = await client.request(method, path, { body, headers: { 'content-type': 'application/json' } });
      const after = digests(ctx.db);
      if (response.status >= 400 && response.status < 500) refused++;
      if (response.status >= 500) failures.push(`${method} ${path} ${body} -> ${response.status}`);
      else if (response.status >= 400 && changed(before, after).length)
        failures.push(`${method} ${path} ${body} -> ${response.status} changed ${changed(before, after)}`);
      before = after;
    }
    expect(failures).toEqual([]);
    // Nearly every generated body is wrong; the few that happen to fit may succeed.
    expect(refused).toBeGreaterThan(500);
  }, 120_000);
});

const FORM_ROUTES: string[] = [
  '/auth/login',
  '/auth/register',
  '/cart/add',
  '/cart/items/1',
  '/profile',
  '/profile/play-limit',
  '/profile/self-exclusion',
  '/business-portal',
  '/coach/signup',
  '/admin/pin',
  '/admin/orders/1/status',
  '/admin/payments/1/resolve',
  '/admin/influencers/new',
  '/admin/influencers/1',
  '/admin/tshirt/new',
  '/admin/book/1',
];

const FORM_KEYS = [
  ...KEYS,
  'next',
  'pin',
  'brand',
  'sku',
  'price',
  'quantity',
  'handle',
  'engagementRate',
  'followers.instagram',
  'limit',
  'termsAgreed',
  'businessName',
  'confirmPassword',
  'image',
  'avatar',
  'filter',
  'confirmed',
];

describe('fuzz: bad form posts on every form route', () => {
  test('300 generated multipart posts (fields repeated, files as text, odd text): no 5xx, and no 4xx changes a row', async () => {
    const ctx = await seededApp();
    await bootstrapAdmin(ctx);
    const shopper = ctx.client();
    expect((await shopper.post('/api/register', { json: { username: 'formfuzz', password: 'secret-pass' } })).status).toBe(201);
    const admin = ctx.client();
    expect((await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
    expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);

    const gen = generator(20261124);
    const texts = ['', ' ', '1', '0x10', '1e3', '-1', '99999999999', 'on', 'true', '<script>', '\u0000', '\r\n', '/%09/evil.example', 'a'.repeat(6000)];
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let before = digests(ctx.db);
    for (let i = 0; i < 300; i++) {
      const path = gen.pick(FORM_ROUTES);
      const client = path.startsWith('/admin') ? admin : shopper;
      const form = new FormData();
      const shown: string[] = [];
      const fields = 1 + Math.floor(gen.pick([0, 1, 2, 3, 4, 5]));
      for (let f = 0; f < fields; f++) {
        const key = gen.pick(FORM_KEYS);
        const asFile = gen.pick([false, false, false, true]);
        if (asFile) form.append(key, new File(['not an image'], 'x.png', { type: 'image/png' }));
        else form.append(key, gen.pick(texts));
        shown.push(`${key}${asFile ? '=<file>' : ''}`);
      }
      // A wrong PIN is counted on the session: that write is the lockout working.
      const except = path === '/admin/pin' ? ['sessions'] : [];
      const response = await client.request('POST', path, { body: form });
      const after = digests(ctx.db);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failures.push(`POST ${path} ${shown.join('&')} -> ${response.status}`);
      else if (response.status >= 400 && changed(before, after, except).length)
        failures.push(`POST ${path} ${shown.join('&')} -> ${response.status} changed ${changed(before, after, except)}`);
      before = after;
    }
    expect(failures).toEqual([]);
    // The posts reach the forms' own answers (a re-rendered form, a redirect with a toast), not one blanket refusal.
    expect((statuses.get(400) ?? 0) + (statuses.get(303) ?? 0)).toBeGreaterThan(200);
  }, 120_000);
});
