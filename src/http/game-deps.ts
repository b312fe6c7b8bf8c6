import type { GameDeps } from '../domain/games/entry.ts';
import type { AppContext, AppDeps, AppEnv } from './context.ts';

/** The game rules' dependencies out of the app's: for the routes, the live stream and the process's jobs. */
export function gameDepsOf({ db, clock, gateway, metrics, config }: Pick<AppDeps, 'db' | 'clock' | 'gateway' | 'metrics' | 'config'>): GameDeps {
  return { db, clock, gateway, metrics, dailyEntryLimit: config.dailyEntryLimit };
}

export const gameDeps = <E extends AppEnv>(c: AppContext<E>): GameDeps => gameDepsOf(c.get('deps'));
