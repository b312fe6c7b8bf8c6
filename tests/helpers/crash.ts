import type { FakeSquare } from './fake-square.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN } from './fake-square.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * The store as the crash tests run it: a real server process on `dataDir` (kept across kill -9 and
 * restart), the manual clock, no rate limits, and the square gateway against the fake Square with
 * a short SDK timeout so a held answer ends as an unknown outcome the reconciler must settle.
 */
export function storeOnFakeSquare(dataDir: string, fake: FakeSquare, env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({
    dataDir,
    env: {
      CLOCK: 'manual',
      RATE_LIMIT: 'off',
      PAYMENTS: 'square',
      SQUARE_ACCESS_TOKEN: FAKE_SQUARE_TOKEN,
      SQUARE_LOCATION_ID: FAKE_SQUARE_LOCATION,
      SQUARE_BASE_URL: fake.url,
      PAYMENT_TIMEOUT_MS: '3000',
      ...env,
    },
  });
}

/** kill -9: no drain, no shutdown hook; resolves once the process is gone. */
export async function kill9(server: Pick<RunningServer, 'child'>): Promise<void> {
  server.child.kill('SIGKILL');
  await server.child.exited;
}
