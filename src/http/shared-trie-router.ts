import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/*
 * Hono's TrieRouter, built once per list of routes. createApp adds the same ~340 routes, with the
 * same handler functions (each request brings the app's dependencies in its env), to every app
 * it builds; inserting them into a trie cost about 2.5 ms an app, and the tests build well over
 * a thousand apps (issue 35). Here the routes added are only noted; the first match builds the
 * trie, or takes the one built for the same list before: the same methods, paths and handler
 * functions in the same order. A server builds one app, so it builds its trie once, as before.
 *
 * Hono stores each route as `[handler, route]`, the route being `{ method, path, ... }` with the
 * same values in every app: a shared trie answers with the first app's, which are equal.
 */

/** Route lists kept: the app's own, and a few variants (tests with the manual clock's routes). */
const KEPT_TRIES = 8;
const tries = new Map<string, TrieRouter<unknown>>();

const handlerIds = new WeakMap<object, number>();
let nextHandlerId = 1;
function handlerId(handler: unknown): number {
  const fn = (Array.isArray(handler) ? handler[0] : handler) as object;
  let id = handlerIds.get(fn);
  if (id === undefined) {
    id = nextHandlerId++;
    handlerIds.set(fn, id);
  }
  return id;
}

export class SharedTrieRouter<T> implements Router<T> {
  readonly name = 'TrieRouter (shared)';
  #routes: [method: string, path: string, handler: T][] = [];
  #trie: TrieRouter<T> | undefined;

  add(method: string, path: string, handler: T): void {
    this.#routes.push([method, path, handler]);
    // A route added after the first match (none in this app) gets a trie of its own list.
    this.#trie = undefined;
  }

  match(method: string, path: string): Result<T> {
    this.#trie ??= this.#build();
    return this.#trie.match(method, path);
  }

  #build(): TrieRouter<T> {
    const key = this.#routes.map(([method, path, handler]) => `${method} ${path} ${handlerId(handler)}`).join('\n');
    let trie = tries.get(key) as TrieRouter<T> | undefined;
    if (trie === undefined) {
      trie = new TrieRouter<T>();
      for (const [method, path, handler] of this.#routes) trie.add(method, path, handler);
      if (tries.size >= KEPT_TRIES) tries.delete(tries.keys().next().value as string);
      tries.set(key, trie as TrieRouter<unknown>);
    }
    return trie;
  }
}
