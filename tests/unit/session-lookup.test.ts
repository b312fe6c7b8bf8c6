import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { sessions, users } from '../../src/db/schema.ts';
import { createSession, generateSessionToken, glanceAtSession, SESSION_LIFETIME_MS, validateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { ManualClock } from '../../src/domain/clock.ts';

/*
 * The session read every signed-in request makes is a plain statement read by hand (issue 35):
 * it gives the session and user exactly as Drizzle reads their rows (booleans, nulls, numbers),
 * the viewer version, and still renews a session in its last week and drops an expired one.
 */

const DAY = 24 * 60 * 60 * 1000;

async function store() {
  const db = await openMigratedDatabase();
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const [plain] = db.insert(users).values({ username: 'plain', passwordHash: 'x', createdAt: 1 }).returning().all();
  const [full] = db
    .insert(users)
    .values({ username: 'Full', passwordHash: 'y', email: 'full@example.com', fullName: 'Full Name', city: 'Oakland', isAdmin: true, createdAt: 2 })
    .returning()
    .all();
  return { db, clock, plain: plain!, full: full! };
}

describe('the session read', () => {
  test('gives the session and user as Drizzle reads their rows, and the viewer version (0 without a row)', async () => {
    const { db, clock, plain, full } = await store();
    for (const user of [plain, full]) {
      const token = generateSessionToken();
      createSession(db, clock, token, user.id);
      const found = validateSessionToken(db, clock, token)!;
      expect(found.user).toEqual(db.select().from(users).where(eq(users.id, user.id)).get()!);
      expect(found.session).toEqual(db.select().from(sessions).where(eq(sessions.userId, user.id)).get()!);
      expect(typeof found.user.isAdmin).toBe('boolean');
      expect(found.renewed).toBe(false);
      expect(found.viewerVersion).toBeNumber();
    }
    db.$client.run('insert or replace into viewer_versions (user_id, version) values (?, 7)', [plain.id]);
    const token = generateSessionToken();
    createSession(db, clock, token, plain.id);
    expect(validateSessionToken(db, clock, token)!.viewerVersion).toBe(7);
    expect(validateSessionToken(db, clock, generateSessionToken())).toBeNull();
    expect(validateSessionToken(db, clock, 'not a token')).toBeNull();
  });

  test('renews a session in its last week (said, and written) and drops an expired one', async () => {
    const { db, clock, plain } = await store();
    const token = generateSessionToken();
    const made = createSession(db, clock, token, plain.id);
    clock.set(made.expiresAt - 3 * DAY);
    const renewed = validateSessionToken(db, clock, token)!;
    expect(renewed.renewed).toBe(true);
    expect(renewed.session.expiresAt).toBe(clock.now() + SESSION_LIFETIME_MS);
    expect(db.select().from(sessions).where(eq(sessions.id, made.id)).get()!.expiresAt).toBe(clock.now() + SESSION_LIFETIME_MS);
    expect(validateSessionToken(db, clock, token)!.renewed).toBe(false);
    clock.set(clock.now() + SESSION_LIFETIME_MS);
    expect(validateSessionToken(db, clock, token)).toBeNull();
    expect(db.select().from(sessions).where(eq(sessions.id, made.id)).get()).toBeUndefined();
  });
});

describe('the glance a signed-in cache hit takes', () => {
  test('says what the full read says of the user and viewer version, and writes nothing', async () => {
    const { db, clock, plain, full } = await store();
    db.$client.run('insert or replace into viewer_versions (user_id, version) values (?, 4)', [full.id]);
    for (const user of [plain, full]) {
      const token = generateSessionToken();
      createSession(db, clock, token, user.id);
      const found = validateSessionToken(db, clock, token)!;
      expect(glanceAtSession(db, clock, token)).toEqual({
        userId: found.user.id,
        isAdmin: found.user.isAdmin,
        username: found.user.username,
        viewerVersion: found.viewerVersion,
        current: true,
      });
    }
    expect(glanceAtSession(db, clock, generateSessionToken())).toBeNull();
    expect(glanceAtSession(db, clock, 'not a token')).toBeNull();
  });

  test('calls a session in its last week, or expired, not current, and leaves renewing and dropping to the full read', async () => {
    const { db, clock, plain } = await store();
    const token = generateSessionToken();
    const made = createSession(db, clock, token, plain.id);
    clock.set(made.expiresAt - 7 * DAY - 1);
    expect(glanceAtSession(db, clock, token)!.current).toBe(true);
    clock.set(made.expiresAt - 3 * DAY);
    expect(glanceAtSession(db, clock, token)!.current).toBe(false);
    expect(db.select().from(sessions).where(eq(sessions.id, made.id)).get()!.expiresAt).toBe(made.expiresAt);
    clock.set(made.expiresAt + 1);
    expect(glanceAtSession(db, clock, token)!.current).toBe(false);
    expect(db.select().from(sessions).where(eq(sessions.id, made.id)).get()).toBeDefined();
  });
});
