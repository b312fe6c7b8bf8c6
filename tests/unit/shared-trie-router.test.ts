import { describe, expect, spyOn, test } from 'bun:test';
import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { SharedTrieRouter } from '../../src/http/shared-trie-router.ts';

/*
 * Apps with the same routes and handlers share one trie (src/http/shared-trie-router.ts): each
 * still answers as Hono's own TrieRouter would, and an app with other routes or other handlers
 * gets a trie of its own.
 */

const home = (c: { text: (body: string) => Response }) => c.text('home');
const product = (c: { req: { param: (name: string) => string }; text: (body: string) => Response }) => c.text(`product ${c.req.param('id')}`);
const notesRead = (c: { text: (body: string) => Response }) => c.text('all read');

const markSeen = async (c: { header: (name: string, value: string) => void }, next: () => Promise<void>) => {
  await next();
  c.header('x-seen', '1');
};

function appWith(router: SharedTrieRouter<never> | TrieRouter<never>, extra?: (app: Hono) => void): Hono {
  const app = new Hono({ router: router as never });
  app.use(markSeen);
  app.get('/', home);
  app.get('/product/:id', product);
  app.post('/notifications/read-all', notesRead);
  extra?.(app);
  return app;
}

async function answers(app: Hono): Promise<string[]> {
  const requests: [string, string][] = [
    ['GET', '/'],
    ['GET', '/product/7'],
    ['POST', '/notifications/read-all'],
    ['GET', '/nowhere'],
    ['GET', '/extra'],
  ];
  return Promise.all(
    requests.map(async ([method, path]) => {
      const response = await app.request(path, { method });
      return `${method} ${path} ${response.status} ${response.headers.get('x-seen')} ${await response.text()}`;
    }),
  );
}

describe('one trie for apps with the same routes', () => {
  test('answers as Hono’s TrieRouter does, the second app building nothing', async () => {
    const expected = await answers(appWith(new TrieRouter()));
    const insert = spyOn(TrieRouter.prototype, 'add');
    try {
      expect(await answers(appWith(new SharedTrieRouter()))).toEqual(expected);
      const firstBuild = insert.mock.calls.length;
      expect(await answers(appWith(new SharedTrieRouter()))).toEqual(expected);
      expect(insert.mock.calls.length).toBe(firstBuild);
    } finally {
      insert.mockRestore();
    }
  });

  test('another route or another handler function gets a trie of its own', async () => {
    appWith(new SharedTrieRouter()).request('/');
    const withExtra = appWith(new SharedTrieRouter(), (app) => app.get('/extra', (c) => c.text('extra')));
    expect((await answers(withExtra)).at(-1)).toBe('GET /extra 200 1 extra');
    const otherHome = new Hono({ router: new SharedTrieRouter() as never }).get('/', (c) => c.text('another home'));
    expect(await (await otherHome.request('/')).text()).toBe('another home');
    expect(await (await appWith(new SharedTrieRouter()).request('/')).text()).toBe('home');
  });

  test('a route added after the first request is found', async () => {
    const app = appWith(new SharedTrieRouter());
    expect((await app.request('/late')).status).toBe(404);
    app.get('/late', (c) => c.text('late'));
    expect(await (await app.request('/late')).text()).toBe('late');
    expect(await (await app.request('/product/3')).text()).toBe('product 3');
  });
});
