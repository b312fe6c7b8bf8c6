import { describe, expect, test } from 'bun:test';
import { MAX_STREAMS_PER_CLIENT } from '../../src/routes/api/events.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { closeWhenFileEnds } from '../helpers/file-end.ts';
import { fromPeer, serveApp } from '../helpers/sockets.ts';
import { readEvents } from '../helpers/sse.ts';

/*
 * Issue 25, row 14: one client opened 2,000 event streams and an unrelated page took 8 s. Each
 * client address holds at most MAX_STREAMS_PER_CLIENT streams; past that it is answered 429,
 * and a stream that closes gives its slot back.
 */

const keepOpen = closeWhenFileEnds((stream: ReturnType<typeof readEvents>) => stream.close());
const TOO_MANY = `Too many live updates are open from your address (at most ${MAX_STREAMS_PER_CLIENT}). Close some tabs of the store and reload.`;
const EVENTS = '/api/events?scoreboard=1';

async function opened(response: Response) {
  expect(response.status).toBe(200);
  const stream = keepOpen(readEvents(response));
  expect((await stream.next())?.event).toBe('ready');
  return stream;
}

const open = async (ctx: TestApp, peer: string, headers: Record<string, string> = {}) => opened(await fromPeer(ctx.app, peer, EVENTS, { headers }));

/** Opens a stream once a slot is free again: a closed stream gives its slot back as the server sees it go. */
async function openOnceFree(ctx: TestApp, peer: string) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const response = await fromPeer(ctx.app, peer, EVENTS);
    if (response.status !== 429 || Date.now() > deadline) return opened(response);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('event streams per client address', () => {
  test('the stream past the cap is 429 with a clear message; another address still connects', async () => {
    const ctx = await testApp();
    for (let i = 0; i < MAX_STREAMS_PER_CLIENT; i++) await open(ctx, '203.0.113.5');
    const refused = await fromPeer(ctx.app, '203.0.113.5', EVENTS);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({ message: TOO_MANY });
    await open(ctx, '203.0.113.6');
  });

  test('a closed stream gives its slot back, and every closed stream all of them', async () => {
    const ctx = await testApp();
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_CLIENT; i++) streams.push(await open(ctx, '198.51.100.8'));
    expect((await fromPeer(ctx.app, '198.51.100.8', EVENTS)).status).toBe(429);
    await streams.shift()!.close();
    streams.push(await openOnceFree(ctx, '198.51.100.8'));
    expect((await fromPeer(ctx.app, '198.51.100.8', EVENTS)).status).toBe(429);
    for (const stream of streams) await stream.close();
    for (let i = 0; i < MAX_STREAMS_PER_CLIENT; i++) await openOnceFree(ctx, '198.51.100.8');
  });

  test('behind a trusted proxy the cap is per shopper, not per proxy', async () => {
    const ctx = await testApp({ TRUST_PROXY: 'loopback' });
    for (let i = 0; i < MAX_STREAMS_PER_CLIENT; i++) await open(ctx, '127.0.0.1', { 'x-forwarded-for': '203.0.113.20' });
    expect((await fromPeer(ctx.app, '127.0.0.1', EVENTS, { headers: { 'x-forwarded-for': '203.0.113.20' } })).status).toBe(429);
    await open(ctx, '127.0.0.1', { 'x-forwarded-for': '203.0.113.21' });
  });

  test('over a real socket: a client that goes away gives its slot back', async () => {
    const ctx = await testApp();
    const server = serveApp(ctx.app);
    try {
      const url = `http://127.0.0.1:${server.port}${EVENTS}`;
      const aborts: AbortController[] = [];
      const connect = async () => {
        const abort = new AbortController();
        const response = await fetch(url, { signal: abort.signal });
        if (response.status === 200) {
          aborts.push(abort);
          await opened(response);
        }
        return response.status;
      };
      for (let i = 0; i < MAX_STREAMS_PER_CLIENT; i++) expect(await connect()).toBe(200);
      expect(await connect()).toBe(429);
      aborts.shift()!.abort();
      const deadline = Date.now() + 3000;
      let status = await connect();
      while (status === 429 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        status = await connect();
      }
      expect(status).toBe(200);
      for (const abort of aborts) abort.abort();
    } finally {
      server.stop(true);
    }
  });
});
