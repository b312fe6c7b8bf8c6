import { expect } from 'bun:test';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { cartItems, games, influencers, notifications, payments, plays, products, users } from '../../src/db/schema.ts';
import type { GameDeps } from '../../src/domain/games/entry.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics, simulatedPoints } from '../../src/domain/games/simulation.ts';
import { openSeed } from '../../src/domain/operations/sealed-seeds.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { COMPLETE_PROFILE, giveConsent } from './actors.ts';
import { testApp, type TestClient } from './app.ts';

/** A game's seed (the first game's by default), read straight from the database and opened: the API keeps it secret until the end. */
export function seedOf(db: Db, gameId?: number): string {
  const game = gameId === undefined ? db.select().from(games).orderBy(asc(games.id)).get() : db.select().from(games).where(eq(games.id, gameId)).get();
  if (!game?.seed) throw new Error('no game with a seed');
  return openSeed(game.seed);
}

/** The score of five influencers over [from, to) under a game's seed (the first game's by default), computed on its own. */
export function expectedScore(db: Db, ids: string[], from: number, to: number, gameId?: number): number {
  const seed = seedOf(db, gameId);
  const people = db
    .select()
    .from(influencers)
    .where(inArray(influencers.id, ids.map(Number)))
    .all();
  if (people.length !== ids.length) throw new Error('unknown influencer');
  return Math.round(people.reduce((sum, p) => sum + simulatedPoints(seed, p.id, p, from, to), 0) * 1000) / 1000;
}

/** Five influencer ids (as the client sends them, strings), from the `from`-th in id order. */
export function fivePicks(db: Db, from: number): string[] {
  return db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .all()
    .slice(from, from + 5)
    .map((i) => String(i.id));
}

// ---------------------------------------------------------------- a store where games are played

/*
 * The hourly game (DESIGN section 4) as the game tests drive it: a seeded store on the manual
 * clock at ten past an hour, players made straight in the database who save a card through the
 * API, and entries made the way the play page makes them (pick five, then pay the $1 hold).
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Ten past an hour: a game that fills now starts at 19:00 and ends at 20:00 (UTC). */
export const T0 = Date.UTC(2026, 10, 21, 18, 10);
export const START = Date.UTC(2026, 10, 21, 19, 0);
export const END = START + HOUR;

/** A seeded store at 18:10 on the manual clock, with the deps the game jobs take; POST /api/test/clock is on unless `env` says otherwise. */
export async function gameStore(env: Record<string, string> = { CLOCK: 'manual' }) {
  const ctx = await testApp(env, { seededAt: T0 });
  const deps: GameDeps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics };
  return { ...ctx, deps };
}
export type GameStore = Awaited<ReturnType<typeof gameStore>>;

export function productBy(ctx: GameStore, brand: string, model?: string) {
  const row = ctx.db
    .select()
    .from(products)
    .where(model ? and(eq(products.brand, brand), eq(products.model, model)) : eq(products.brand, brand))
    .get();
  if (!row) throw new Error(`no seeded product ${brand} ${model ?? ''}`);
  return row;
}
/** $2, 6 in stock, playEnabled: two players fill its game. */
export const book = (ctx: GameStore) => productBy(ctx, 'The Old Man and the Sea');
/** $8, 9 in stock, playEnabled: eight players fill its game. */
export const giftBook = (ctx: GameStore) => productBy(ctx, 'Gift from the Sea');
/** $12 tee, playEnabled: 12 players. */
export const vansTee = (ctx: GameStore) => productBy(ctx, 'Vans', 'VN000GGG-BLK');
/** $171 Aviator: not playEnabled. */
export const aviator = (ctx: GameStore) => productBy(ctx, 'Ray-Ban', 'RB3025-L0205');

export const picks = (ctx: GameStore, from: number) => fivePicks(ctx.db, from);

export interface Player {
  client: TestClient;
  id: number;
  username: string;
}

/** A signed-in player made in the database, with play consent; a card (this source) is saved through the API unless `card` is false. */
export async function player(ctx: GameStore, username: string, card: string | false = 'cnon:card-nonce-ok'): Promise<Player> {
  const user = ctx.db.insert(users).values({ username, passwordHash: 'unused', createdAt: ctx.clock.now() }).returning().get();
  giveConsent(ctx, user.id);
  const token = generateSessionToken();
  createSession(ctx.db, ctx.clock, token, user.id);
  const client = ctx.client();
  client.cookies.set('csa_session', token);
  if (card) {
    const saved = await client.request('PATCH', '/api/user/profile', { json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: card } } });
    expect(saved.status).toBe(200);
  }
  return { client, id: user.id, username };
}

export const postPlay = (p: Player | TestClient, json: unknown) => ('client' in p ? p.client : p).post('/api/plays', { json });
export const postPayment = (p: Player | TestClient, json: unknown) => ('client' in p ? p.client : p).post('/api/payments', { json });
/** The $1 hold for the player's pending play of the product. */
export const pay = (p: Player, productId: number) => postPayment(p, { productId, amount: 1, type: 'play' });

/** Picks five influencers (201, not yet paid). */
export async function pick(p: Player, productId: number, influencerIds: string[]) {
  const response = await postPlay(p, { productId, influencerIds });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; gameId: number; status: string };
}

/** Picks five influencers and pays the $1: a counted entry. */
export async function enter(p: Player, productId: number, influencerIds: string[]) {
  const play = await pick(p, productId, influencerIds);
  const paid = await pay(p, productId);
  expect(paid.status).toBe(201);
  expect(await paid.json()).toMatchObject({ status: 'entered', gameId: play.gameId, amount: 1 });
  return play;
}

/** Two players enter the $2 book's game at 18:10 (filled), with different picks. */
export async function filledBookGame(ctx: GameStore) {
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const productId = book(ctx).id;
  const a = await enter(alice, productId, picks(ctx, 0));
  ctx.clock.advance(1_000);
  const b = await enter(bob, productId, picks(ctx, 5));
  expect(b.gameId).toBe(a.gameId);
  return { alice, bob, productId, gameId: a.gameId, alicePlay: a.id, bobPlay: b.id };
}

/** The filled book game, started at 19:00 and ended at 20:00 (not yet settled). */
export async function endedBookGame(ctx: GameStore) {
  const game = await filledBookGame(ctx);
  ctx.clock.set(START);
  expect((await runGameJobs(ctx.deps)).started).toEqual([game.gameId]);
  ctx.clock.set(END);
  return game;
}

/** Alice enters, Carol picks without paying, Bob enters and fills the book's game at 18:10. */
export async function filledWithCarolPending(ctx: GameStore) {
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const carol = await player(ctx, 'carol');
  const productId = book(ctx).id;
  const a = await enter(alice, productId, picks(ctx, 0));
  const pending = await pick(carol, productId, picks(ctx, 11));
  expect(pending.gameId).toBe(a.gameId);
  ctx.clock.advance(1_000);
  const b = await enter(bob, productId, picks(ctx, 5));
  expect(b.gameId).toBe(a.gameId);
  return { gameId: a.gameId, productId, carol, pending };
}

/** Moves the manual clock through the API, as the e2e tests and a tester's browser do. */
export const clockRoute = (client: TestClient, json: unknown) => client.post('/api/test/clock', { json });

/** GET /api/products/{id}/competition, as anyone reads it. */
export async function competition(ctx: GameStore, productId: number) {
  const response = await ctx.client().get(`/api/products/${productId}/competition`);
  expect(response.status).toBe(200);
  return response.json();
}

// ---------------------------------------------------------------- rows

export const stockOf = (ctx: GameStore, productId: number) => ctx.db.select().from(products).where(eq(products.id, productId)).get()!.quantity;
export const gameRow = (ctx: GameStore, id: number) => ctx.db.select().from(games).where(eq(games.id, id)).get()!;
export const gamesOf = (ctx: GameStore, productId: number) => ctx.db.select().from(games).where(eq(games.productId, productId)).orderBy(asc(games.id)).all();
export const playRow = (ctx: GameStore, id: number) => ctx.db.select().from(plays).where(eq(plays.id, id)).get()!;
export const playRows = (ctx: GameStore, userId: number) => ctx.db.select().from(plays).where(eq(plays.userId, userId)).orderBy(asc(plays.id)).all();
export const playsOfGame = (ctx: GameStore, gameId: number) => ctx.db.select().from(plays).where(eq(plays.gameId, gameId)).orderBy(asc(plays.id)).all();
export const enteredOf = (ctx: GameStore, gameId: number) => playsOfGame(ctx, gameId).filter((p) => p.status === 'entered');
export const holdsOf = (ctx: GameStore) => ctx.db.select().from(payments).where(eq(payments.kind, 'play_authorization')).orderBy(asc(payments.id)).all();
export const notesOf = (ctx: GameStore, userId: number, type?: string) =>
  ctx.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.id))
    .all()
    .filter((n) => type === undefined || n.type === type);
export const prizeLines = (ctx: GameStore) => ctx.db.select().from(cartItems).where(eq(cartItems.type, 'play')).all();
