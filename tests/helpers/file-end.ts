import { afterAll } from 'bun:test';

/**
 * For files whose tests run at once (describe.concurrent): what each test opens (a store, a fake
 * server, a stream) is kept and closed when the file is done, not after each test, which would
 * close the others' too. Returns `keep`, which hands back what it is given.
 */
export function closeWhenFileEnds<T>(close: (item: T) => unknown) {
  const opened: T[] = [];
  afterAll(async () => {
    for (const item of opened.splice(0)) await close(item);
  });
  return <U extends T>(item: U): U => {
    opened.push(item);
    return item;
  };
}
