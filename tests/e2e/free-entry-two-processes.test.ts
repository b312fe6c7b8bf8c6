import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { buyNowBody, completeProfile, giveConsent } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/*
 * Buy one, play free (issue 29): two real server processes on one DATA_DIR, a player with one
 * free entry sends 20 free joins at once over six games, ten to each process. The entry is
 * claimed with a conditional UPDATE inside the join's IMMEDIATE transaction, so exactly one join
 * uses it and every other is refused, in each of 5 rounds (a fresh player each round).
 */

const ROUNDS = 5;
const JOINS = 20;
const GAMES = 6;
let a: RunningServer;
let b: RunningServer;
let db: Db;
let products: number[];
let flagged: { id: number; priceCents: number };
let picks: string[];

// Starting servers takes seconds on a busy machine: more than the hooks' default 5 s.
beforeAll(async () => {
  const env = { TRUST_PROXY: 'loopback' };
  a = await startServer({ env });
  b = await startServer({ env, dataDir: a.dataDir });
  db = openDatabase(join(a.dataDir, 'data', 'store.db'));
  // The dearest playable products: their games need the most players, so no join fills one.
  products = db.$client
    .query<{ id: number }, [number]>('select id from products where play_enabled = 1 and quantity > 0 order by price_cents desc limit ?')
    .all(GAMES)
    .map((row) => row.id);
  flagged = db.$client
    .query<{ id: number; priceCents: number }, []>(
      'select id, price_cents as priceCents from products where buy_one_play_free_enabled = 1 and quantity > 0 order by price_cents limit 1',
    )
    .get()!;
  picks = ((await (await fetch(`${a.url}/api/influencers`)).json()) as { id: number }[]).slice(0, 5).map((i) => String(i.id));
}, 60_000);

afterAll(async () => {
  db?.$client.close();
  await b?.stop();
  await a?.stop();
}, 30_000);

/** A signed-in player with a card on file and consent, as a client of each process. */
function playerClients(round: number): { userId: number; clients: Client[] } {
  const user = db
    .insert(users)
    .values({ username: `free1_${round}_${crypto.randomUUID().slice(0, 6)}`, passwordHash: 'unused', createdAt: systemClock.now() })
    .returning()
    .get();
  completeProfile({ db, clock: systemClock }, user.id);
  giveConsent({ db, clock: systemClock }, user.id);
  const token = generateSessionToken();
  createSession(db, systemClock, token, user.id);
  const clients = Array.from({ length: JOINS }, (_, i) => {
    const client = new Client(i % 2 ? b : a, { 'x-forwarded-for': `10.3.${round}.${i + 1}` });
    client.cookie = `csa_session=${token}`;
    return client;
  });
  return { userId: user.id, clients };
}

const count = (sql: string, userId: number) => db.$client.query<{ n: number }, [number]>(sql).get(userId)?.n ?? 0;

describe('two processes on one database: one free entry', () => {
  test(`${JOINS} free joins at once over both processes: one uses the entry, the others are refused, ${ROUNDS} rounds out of ${ROUNDS}`, async () => {
    const rounds: { used: number; entered: number; holds: number; answers: string[] }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { userId, clients } = playerClients(round);
      const bought = await clients[0]!.request('POST', '/api/orders', buyNowBody(flagged.id, flagged.priceCents));
      if (bought.status !== 201) throw new Error(`buy ${bought.status} ${await bought.text()}`);
      for (const productId of products) {
        const pick = await clients[0]!.request('POST', '/api/plays', { productId, influencerIds: picks });
        if (pick.status !== 201) throw new Error(`pick ${pick.status} ${await pick.text()}`);
      }
      const answers = await Promise.all(
        clients.map(async (client, i) => {
          const join = await client.request('POST', '/api/payments', { productId: products[i % GAMES], type: 'play', useFreeEntry: true });
          const body = (await join.json()) as { code?: string; status?: string };
          return `${join.status} ${body.code ?? body.status}`;
        }),
      );
      rounds.push({
        used: count("select count(*) as n from free_entries where user_id = ? and status = 'used'", userId),
        entered: count("select count(*) as n from plays where user_id = ? and status = 'entered'", userId),
        holds: count("select count(*) as n from payments where user_id = ? and kind = 'play_authorization'", userId),
        answers: answers.sort(),
      });
    }
    // Refused: no entry left (409), or the play already entered (404: none waiting for payment).
    const refused = (answer: string) => answer === '409 NO_FREE_ENTRY' || answer.startsWith('404 ') || answer.startsWith('409 ');
    const wrong = rounds.filter(
      (r) =>
        r.used !== 1 ||
        r.entered !== 1 ||
        r.holds !== 0 ||
        r.answers.filter((x) => x === '201 entered').length !== 1 ||
        r.answers.filter((x) => x !== '201 entered').some((x) => !refused(x)),
    );
    expect(wrong).toEqual([]);
  }, 120_000);
});
