import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { games, influencers } from '../../src/db/schema.ts';
import { simulatedPoints } from '../../src/domain/games/simulation.ts';

/** A game's seed (the first game's by default), read straight from the database: the API keeps it secret until the end. */
export function seedOf(db: Db, gameId?: number): string {
  const game = gameId === undefined ? db.select().from(games).orderBy(asc(games.id)).get() : db.select().from(games).where(eq(games.id, gameId)).get();
  if (!game?.seed) throw new Error('no game with a seed');
  return game.seed;
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
