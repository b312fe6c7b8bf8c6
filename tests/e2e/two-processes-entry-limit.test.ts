import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase, type Db } from '../../src/db/client.ts';
import { playerSettings, users } from '../../src/db/schema.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { completeProfile, giveConsent } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/*
 * Issue 25 row 9: two real server processes on one DATA_DIR, a player whose daily entry limit
 * is 1 sends six $1 entries at once, three to each process. The limit is counted inside the
 * claim's transaction, so whichever claim comes second sees the first: one entry, five refusals,
 * in every one of 20 rounds (a fresh player each round, made straight in the database so the
 * rounds spend their time on the entries, not on password hashing).
 */

const ROUNDS = 20;
const ENTRIES = 6;
let a: RunningServer;
let b: RunningServer;
let db: Db;
let products: number[];
let picks: string[];

// Starting servers takes seconds on a busy machine: more than the hooks' default 5 s.
beforeAll(async () => {
  const env = { TRUST_PROXY: 'loopback' };
  a = await startServer({ env });
  b = await startServer({ env, dataDir: a.dataDir });
  db = openDatabase(join(a.dataDir, 'data', 'store.db'));
  // The dearest playable products: their games need the most players, so 20 entries never fill one.
  products = db.$client
    .query<{ id: number }, [number]>('select id from products where play_enabled = 1 and quantity > 0 order by price_cents desc limit ?')
    .all(ENTRIES)
    .map((row) => row.id);
  picks = ((await (await fetch(`${a.url}/api/influencers`)).json()) as { id: number }[]).slice(0, 5).map((i) => String(i.id));
}, 60_000);

afterAll(async () => {
  db?.$client.close();
  await b?.stop();
  await a?.stop();
}, 30_000);

/** A signed-in player with a card on file, consent given and a daily entry limit of 1. */
function playerWithLimitOfOne(round: number): number {
  const user = db
    .insert(users)
    .values({ username: `limit1_${round}_${crypto.randomUUID().slice(0, 6)}`, passwordHash: 'unused', createdAt: systemClock.now() })
    .returning()
    .get();
  completeProfile({ db, clock: systemClock }, user.id);
  giveConsent({ db, clock: systemClock }, user.id);
  db.update(playerSettings).set({ dailyEntryLimit: 1 }).where(eq(playerSettings.userId, user.id)).run();
  return user.id;
}

function clientsFor(userId: number, round: number): Client[] {
  const token = generateSessionToken();
  createSession(db, systemClock, token, userId);
  return Array.from({ length: ENTRIES }, (_, i) => {
    const client = new Client(i % 2 ? b : a, { 'x-forwarded-for': `10.2.${round}.${i + 1}` });
    client.cookie = `csa_session=${token}`;
    return client;
  });
}

function countedEntries(userId: number): number {
  return (
    db.$client.query<{ n: number }, [number]>("select count(*) as n from plays where user_id = ? and status in ('entered', 'authorizing')").get(userId)?.n ?? 0
  );
}

describe('two processes on one database: the daily entry limit', () => {
  test(`a limit of 1 under ${ENTRIES} concurrent entries split over both processes: one entry, ${ROUNDS} rounds out of ${ROUNDS}`, async () => {
    const rounds: { entered: number; answers: string[] }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const userId = playerWithLimitOfOne(round);
      const clients = clientsFor(userId, round);
      // The picks on each product first (a pick is not an entry), then every $1 hold at once.
      for (const [i, client] of clients.entries()) {
        const pick = await client.request('POST', '/api/plays', { productId: products[i], influencerIds: picks });
        if (pick.status !== 201) throw new Error(`pick ${pick.status} ${await pick.text()}`);
      }
      const answers = await Promise.all(
        clients.map(async (client, i) => {
          const hold = await client.request('POST', '/api/payments', { productId: products[i], amount: 1, type: 'play' });
          const body = (await hold.json()) as { code?: string; status?: string };
          return `${hold.status} ${body.code ?? body.status}`;
        }),
      );
      rounds.push({ entered: countedEntries(userId), answers: answers.sort() });
    }
    // One entry a round; every other hold is refused by the daily limit, or by the card-attempt
    // limit when five of the user's card slots happen to be in flight at once (a 429).
    const refused = (answer: string) => answer === '403 DAILY_LIMIT_REACHED' || answer.startsWith('429 ');
    const wrong = rounds.filter(
      (r) =>
        r.entered !== 1 || r.answers.filter((a) => a === '201 entered').length !== 1 || r.answers.filter((a) => a !== '201 entered').some((a) => !refused(a)),
    );
    expect(wrong).toEqual([]);
  }, 90_000);
});
