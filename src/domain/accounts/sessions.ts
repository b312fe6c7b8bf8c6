import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { eq, getTableColumns, lt, sql, type Table } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce, statementOnce } from '../../db/prepared.ts';
import { sessions, users, viewerVersions, type Session, type User } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

export type { Session, User };

/*
 * Sessions as Lucia's current guide describes them: a random token in the cookie, only its
 * SHA-256 in the database, a 14-day expiry extended when less than 7 days remain (a stolen
 * cookie left unused dies within two weeks; 'Sign out everywhere' ends it at once).
 */

const DAY = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 14 * DAY;
const RENEW_WITHIN_MS = 7 * DAY;

export interface SessionWithUser {
  session: Session;
  user: User;
  /** True when the expiry moved, so the cookie must be written again. */
  renewed: boolean;
  /** Moves whenever the user's cart, notifications or profile change (viewer_versions). */
  viewerVersion: number;
}

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdFromToken(token: string): string {
  // The one-shot hash: a CryptoHasher object per call cost three times as much, on every signed-in request.
  return Bun.SHA256.hash(token, 'hex');
}

/* Every sign-in writes a session, and a signed-in request may renew or remove one: built once (db/prepared.ts). */
const insertSession = preparedOnce((db) =>
  db
    .insert(sessions)
    .values({
      id: sql.placeholder('id'),
      userId: sql.placeholder('userId'),
      expiresAt: sql.placeholder('expiresAt'),
      createdAt: sql.placeholder('createdAt'),
      pinVerifiedAt: null,
      pinUsedAt: null,
      pinFailures: 0,
      pinLockedUntil: null,
    })
    .prepare(),
);
const deleteSession = preparedOnce((db) =>
  db
    .delete(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare(),
);
const renewSession = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ expiresAt: sql`${sql.placeholder('expiresAt')}` })
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare(),
);

export function createSession(db: Db, clock: Clock, token: string, userId: number): Session {
  const now = clock.now();
  const session: Session = {
    id: sessionIdFromToken(token),
    userId,
    expiresAt: now + SESSION_LIFETIME_MS,
    createdAt: now,
    pinVerifiedAt: null,
    pinUsedAt: null,
    pinFailures: 0,
    pinLockedUntil: null,
  };
  insertSession(db).run({ id: session.id, userId, expiresAt: session.expiresAt, createdAt: now });
  return session;
}

/**
 * Every request of a signed-in user runs this lookup: one statement, its SQL written once per
 * process and compiled once per database (db/prepared.ts; issue 35: a signed-in cache hit runs this and nothing else), the session, its user and the
 * viewer version by their primary keys. One statement reads one snapshot, so no transaction.
 * The SQL is Drizzle's, run as a plain statement returning an array per row, read into the
 * session and user by their columns (what Drizzle's row mapping did, at a fraction of its cost
 * on a path every signed-in request takes).
 * The token's hash is bound as `cast(? as text)`: a bare `?` compared with a column in a join
 * lets SQLite's constant propagation use the bound value, so every new binding expires the
 * statement and it is compiled again on each run (about 150-200 us of this three-table select;
 * with the cast, about 10 us). Same plan, same index (bench/hit-costs.ts, docs/decisions.md).
 */
const sessionLookup = statementOnce<[string], unknown[]>(
  (db) =>
    db
      .select({ session: sessions, user: users, viewerVersion: viewerVersions.version })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(viewerVersions, eq(viewerVersions.userId, sessions.userId))
      .where(eq(sessions.id, sql`cast(${sql.placeholder('id')} as text)`))
      .toSQL().sql,
);

/** Reads a table's columns, in the order Drizzle selects them, from a row of values starting at `from`. */
function rowReader<T>(table: Table): (values: unknown[], from: number) => T {
  const columns = Object.entries(getTableColumns(table));
  return (values, from) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < columns.length; index++) {
      const [key, column] = columns[index]!;
      const value = values[from + index];
      row[key] = value === null ? null : column.mapFromDriverValue(value);
    }
    return row as T;
  };
}
const readSession = rowReader<Session>(sessions);
const readUser = rowReader<User>(users);
const SESSION_COLUMNS = Object.keys(getTableColumns(sessions)).length;
const USER_COLUMNS = Object.keys(getTableColumns(users)).length;

/** The session and its user, or null when the token is unknown or expired (an expired row is removed). */
export function validateSessionToken(db: Db, clock: Clock, token: string): SessionWithUser | null {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const id = sessionIdFromToken(token);
  const values = sessionLookup(db).values(id)[0];
  if (!values) return null;
  const session = readSession(values, 0);
  const user = readUser(values, SESSION_COLUMNS);
  const viewerVersion = (values[SESSION_COLUMNS + USER_COLUMNS] as number | null) ?? 0;
  const now = clock.now();
  if (now >= session.expiresAt) {
    deleteSession(db).run({ id });
    return null;
  }
  const renewed = session.expiresAt - now < RENEW_WITHIN_MS;
  if (renewed) {
    session.expiresAt = now + SESSION_LIFETIME_MS;
    renewSession(db).run({ id, expiresAt: session.expiresAt });
  }
  return { session, user, renewed, viewerVersion };
}

/** What a kept page for a signed-in shopper needs of their session (glanceAtSession). */
export interface SessionGlance {
  userId: number;
  isAdmin: boolean;
  username: string;
  viewerVersion: number;
  /** Neither expired nor due for renewal: a request may be answered without touching the session. */
  current: boolean;
}

/*
 * The columns a signed-in cache hit compares with its kept page, and no more: the full lookup
 * above turns 23 columns into JS values (the password hash, the address...), which cost more
 * than the rest of the statement on a hit (bench/hit-costs.ts). Bound as `cast(? as text)` for
 * the reason given above.
 */
type GlanceRow = [expiresAt: number, userId: number, isAdmin: number, username: string, viewerVersion: number | null];
const sessionGlanceQuery = statementOnce<[string]>(
  (db) =>
    db
      .select({ expiresAt: sessions.expiresAt, userId: users.id, isAdmin: users.isAdmin, username: users.username, viewerVersion: viewerVersions.version })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(viewerVersions, eq(viewerVersions.userId, sessions.userId))
      .where(eq(sessions.id, sql`cast(${sql.placeholder('id')} as text)`))
      .toSQL().sql,
);

/**
 * The session named by the token, at a glance: one statement, nothing written. An expired
 * session, or one due for renewal, is `current: false`; the caller then leaves it to
 * validateSessionToken, which removes or renews it.
 */
export function glanceAtSession(db: Db, clock: Clock, token: string): SessionGlance | null {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const values = sessionGlanceQuery(db).values(sessionIdFromToken(token))[0] as GlanceRow | undefined;
  if (!values) return null;
  const [expiresAt, userId, isAdmin, username, viewerVersion] = values;
  return { userId, isAdmin: isAdmin === 1, username, viewerVersion: viewerVersion ?? 0, current: expiresAt - clock.now() >= RENEW_WITHIN_MS };
}

export function invalidateSession(db: Queryable, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

/** 'Sign out everywhere': ends every session of the user, this one included; returns how many. */
export function invalidateAllSessions(db: Queryable, userId: number): number {
  return db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }).all().length;
}

/** Expired sessions can never be used again: the hourly retention job drops them. */
export function pruneExpiredSessions(db: Queryable, now: number): void {
  db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
}
