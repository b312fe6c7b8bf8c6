import type { FeedMinute } from '../../src/domain/games/metrics-feed.ts';

/*
 * A fake metrics provider speaking docs/metrics-feed.md over real HTTP: minutes it "has" answer
 * 200, others 404; it can be slow, fail with 5xx, or drop the connection, and it records what
 * was asked and with which key.
 */

export interface FakeFeed {
  url: string;
  /** Minutes the provider has delivered, by epoch ms. */
  minutes: Map<number, FeedMinute>;
  requests: { minute: number; authorization: string | null }[];
  /** Every request waits this long first. */
  latencyMs: number;
  /** The next n requests answer this status (e.g. 503) instead. */
  failNext(count: number, status: number): void;
  stop(): Promise<void>;
}

export async function startFakeFeed(): Promise<FakeFeed> {
  let failures: { left: number; status: number } = { left: 0, status: 503 };
  const feed: Omit<FakeFeed, 'url' | 'stop'> = {
    minutes: new Map(),
    requests: [],
    latencyMs: 0,
    failNext(count, status) {
      failures = { left: count, status };
    },
  };
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const minute = Number(url.searchParams.get('minute'));
      feed.requests.push({ minute, authorization: request.headers.get('authorization') });
      if (feed.latencyMs) await Bun.sleep(feed.latencyMs);
      if (failures.left > 0) {
        failures.left--;
        return new Response('{"error":"unavailable"}', { status: failures.status });
      }
      const body = feed.minutes.get(minute);
      return body ? Response.json(body) : new Response('{"error":"not ready"}', { status: 404 });
    },
  });
  return Object.assign(feed, { url: `http://127.0.0.1:${server.port}/v1/minutes`, stop: () => server.stop(true) });
}

/** A minute where every given handle posted these metrics on instagram. */
export function feedMinute(minute: number, handles: string[], metrics = { followers: 1_000_000, engagement: 3, growth: 0.1, posts: 0 }): FeedMinute {
  return { minute, influencers: handles.map((handle) => ({ handle, platforms: { instagram: { ...metrics } } })) };
}
