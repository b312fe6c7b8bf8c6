/** How long a game runs (spec section 4). Shared by the server's schedule (domain/games/schedule.ts) and the islands' countdown. */
export const GAME_LENGTH_MS = 60 * 60 * 1000;
