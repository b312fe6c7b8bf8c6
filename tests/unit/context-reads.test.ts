import { describe, expect, test } from 'bun:test';
import { Glob } from 'bun';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';

/*
 * Hono's `c.var` is a getter that copies every variable of the request into a new object
 * (Object.fromEntries) on each read: a signed-in product page read it about ten times, 7% of
 * its time. `c.get(name)` reads one entry. Lint cannot say this, so this test does.
 */
describe('request context reads', () => {
  test('no source file reads c.var', async () => {
    const offenders: string[] = [];
    for await (const file of new Glob('src/**/*.{ts,tsx}').scan(projectRoot)) {
      const text = await Bun.file(join(projectRoot, file)).text();
      text.split('\n').forEach((line, index) => {
        if (/\b\w+\.var\b(?!\w)/.test(line) && !/^\s*(\*|\/\/)/.test(line)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
