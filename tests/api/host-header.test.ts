import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { seededStore, type Store } from '../helpers/admin-tools.ts';
import { rawRequest, serveApp } from '../helpers/sockets.ts';

/*
 * Issue 25, row 14: with an empty Host, `GET /zzzz/metrics` was served as /metrics, and an empty
 * or malformed Host gave 500 on five pages. The request's URL is built from its Host header, so
 * one that is empty or not a host name is answered 400 before any route sees it. fetch() never
 * sends such a header: these requests are written on a socket.
 */

let ctx: Store;
let server: ReturnType<typeof serveApp>;

beforeAll(async () => {
  ctx = await seededStore();
  server = serveApp(ctx.app);
});
afterAll(() => server.stop(true));

const get = (path: string, host: string | null) => rawRequest(server.port!, `GET ${path} HTTP/1.1${host === null ? '' : `\r\nHost: ${host}`}`);
const PAGES = ['/', '/products', '/products?type=book', '/auth', '/cart', '/scoreboard', '/product/1', '/zzzz'];
const BAD_HOST = { message: 'Bad request: the Host header is missing or not a valid host name.' };

describe('a request with an empty or malformed Host', () => {
  test('an empty Host is 400, never /metrics read from the end of the path', async () => {
    for (const path of ['/zzzz/metrics', '/metrics', '/x/healthz']) {
      const answer = await get(path, '');
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect(JSON.parse(answer.body)).toEqual(BAD_HOST);
      expect(answer.body).not.toContain('csa_');
    }
  });

  test.each(['', 'a b', 'shop.example/evil', '[::1', 'shop.example:99999', 'user@shop.example', '%41', 'x#y', 'a..b', '-bad-.example'])(
    'Host %p: 400 on every page, never a 500',
    async (host) => {
      for (const path of PAGES) {
        const answer = await get(path, host);
        expect({ host, path, status: answer.status }).toEqual({ host, path, status: 400 });
      }
    },
  );

  test('HTTP/1.0 without a Host is 400 too: its URL would be a bare path', async () => {
    const answer = await rawRequest(server.port!, 'GET /metrics HTTP/1.0');
    expect(answer.status).toBe(400);
  });
});

describe('a sound Host', () => {
  test.each(['localhost', 'shop.example', 'shop.example:8443', '127.0.0.1:3000', '[::1]:3000', 'csa_web.internal'])(
    'Host %p: the pages answer',
    async (host) => {
      for (const path of ['/', '/products', '/auth']) {
        const answer = await get(path, host);
        expect({ host, path, status: answer.status }).toEqual({ host, path, status: 200 });
      }
      expect((await get('/zzzz/metrics', host)).status).toBe(404);
    },
  );
});
