import * as bunTest from 'bun:test';

/*
 * Just enough of bun:test to run the fast suite's files in a plain `bun` process, which takes
 * `--cpu-prof` (bun 1.4.5's test runner writes no profile). Tests run one after another, each
 * with its describe blocks' hooks; nothing here is for checking results: profile-files.ts says
 * how many failed, and `bun test` stays the judge.
 */

export const { expect, spyOn, mock, jest, setSystemTime } = bunTest;

type Body = (...args: never[]) => unknown;

interface Block {
  tests: { name: string; body: Body }[];
  children: Block[];
  beforeEach: Body[];
  afterEach: Body[];
  beforeAll: Body[];
  afterAll: Body[];
  parent?: Block;
}

const block = (parent?: Block): Block => ({ tests: [], children: [], beforeEach: [], afterEach: [], beforeAll: [], afterAll: [], parent });
const root = block();
let current = root;
let failed = 0;

type Each = (rows: unknown[]) => (name: string, body: Body) => void;
const withEach = <T extends (name: string, body: Body) => void>(define: T) => {
  const each: Each = (rows) => (name, body) => {
    for (const row of rows) define(name, () => (body as (...args: unknown[]) => unknown)(...(Array.isArray(row) ? row : [row])));
  };
  const skip = () => {};
  return Object.assign(define, {
    each,
    skip,
    todo: skip,
    failing: skip,
    only: define,
    concurrent: define,
    serial: define,
    if: (run: boolean) => (run ? define : skip),
    skipIf: (skipped: boolean) => (skipped ? skip : define),
  });
};

export const describe = withEach((_name: string, body: Body) => {
  const child = block(current);
  current.children.push(child);
  const outer = current;
  current = child;
  (body as () => void)();
  current = outer;
});
export const test = withEach((name: string, body: Body) => void current.tests.push({ name, body }));
export const it = test;
export const beforeEach = (body: Body) => void current.beforeEach.push(body);
export const afterEach = (body: Body) => void current.afterEach.push(body);
export const beforeAll = (body: Body) => void current.beforeAll.push(body);
export const afterAll = (body: Body) => void current.afterAll.push(body);

const outward = (from: Block | undefined, hooks: 'beforeEach' | 'afterEach'): Body[] =>
  from ? (hooks === 'beforeEach' ? [...outward(from.parent, hooks), ...from[hooks]] : [...from[hooks], ...outward(from.parent, hooks)]) : [];

// A hook or test that takes an argument is given done().
const call = (body: Body) => (body.length > 0 ? new Promise<void>((done) => (body as (done: () => void) => void)(done)) : (body as () => unknown)());

/** Runs every test defined since the last call (one file's), then forgets them. */
export async function runDefined(from: Block = root): Promise<void> {
  for (const hook of from.beforeAll) await call(hook);
  for (const { name, body } of from.tests) {
    try {
      for (const hook of outward(from, 'beforeEach')) await call(hook);
      await call(body);
    } catch (error) {
      failed++;
      console.error(`failed: ${name}: ${String(error).slice(0, 200)}`);
    }
    for (const hook of outward(from, 'afterEach')) await Promise.resolve(call(hook)).catch(() => {});
  }
  for (const child of from.children) await runDefined(child);
  for (const hook of from.afterAll) await call(hook);
  Object.assign(from, block(from.parent));
}

export const failures = () => failed;
