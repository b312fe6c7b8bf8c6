import { describe, expect, test } from 'bun:test';
import { PageCache } from '../../src/http/page-cache.ts';

const bodyOf = (entry: ReturnType<PageCache['get']>) => (entry?.kind === 'response' ? entry.body : undefined);

describe('PageCache and the storefront version', () => {
  function cacheAt() {
    const state = { version: 1, reads: 0, now: 0 };
    const cache = new PageCache(
      () => {
        state.reads++;
        return state.version;
      },
      { recheckMs: 250, now: () => state.now },
    );
    return { cache, state };
  }

  test('reads the version at most every 250 ms while this process writes nothing', () => {
    const { cache, state } = cacheAt();
    expect(cache.get('/')).toBeUndefined();
    cache.set('/', 'home', 'text/html');
    expect(bodyOf(cache.get('/'))).toBe('home');
    const reads = state.reads;
    for (let i = 0; i < 100; i++) {
      state.now += 2;
      cache.get('/');
    }
    expect(state.reads - reads).toBe(0);
    state.now += 50;
    cache.get('/');
    expect(state.reads - reads).toBe(1);
  });

  test("another process's change (the version moved) drops every page within 250 ms", () => {
    const { cache, state } = cacheAt();
    cache.get('/');
    cache.set('/', 'home', 'text/html');
    cache.set('/products', 'gallery', 'text/html');
    state.version = 2;
    state.now += 100;
    expect(bodyOf(cache.get('/'))).toBe('home');
    state.now += 150;
    expect(cache.get('/')).toBeUndefined();
    expect(cache.get('/products')).toBeUndefined();
  });

  test("this process's own write is seen by the very next lookup", () => {
    const { cache, state } = cacheAt();
    cache.get('/');
    cache.set('/', 'home', 'text/html');
    state.version = 2;
    cache.noteLocalWrite();
    expect(cache.get('/')).toBeUndefined();
    expect(cache.hits).toBe(0);
    expect(cache.misses).toBe(2);
  });

  test('an unchanged version after a local write keeps the pages', () => {
    const { cache } = cacheAt();
    cache.get('/');
    cache.set('/', 'home', 'text/html');
    cache.noteLocalWrite();
    expect(bodyOf(cache.get('/'))).toBe('home');
    expect(cache.hits).toBe(1);
  });
});
