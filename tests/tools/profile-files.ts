import { plugin } from 'bun';

/*
 * Where the fast suite spends its CPU, as one profile (docs/decisions.md, issue 35):
 *
 *   NODE_ENV=test bun --cpu-prof --cpu-prof-dir=/tmp/prof tests/tools/profile-files.ts $(ls $PWD/tests/api/*.test.ts)
 *
 * The files run in this one process as `bun test --no-isolate` runs them in a worker, their
 * `bun:test` swapped for bun-test-stand-in.ts; each file's CPU milliseconds are printed. The
 * profile's samples are the main thread's wall time (a blocked fsync or spawnSync counts too).
 */

const standIn = new URL('./bun-test-stand-in.ts', import.meta.url).pathname;

plugin({
  name: 'bun-test-stand-in',
  setup(build) {
    build.onLoad({ filter: /\/tests\/(unit|api|islands|helpers)\/.*\.tsx?$/ }, async ({ path }) => ({
      contents: (await Bun.file(path).text()).replaceAll("from 'bun:test'", `from '${standIn}'`),
      loader: path.endsWith('x') ? 'tsx' : 'ts',
    }));
  },
});

const { runDefined, failures } = await import(standIn);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

for (const file of process.argv.slice(2)) {
  const start = cpuMs();
  await import(file);
  await runDefined();
  console.log(`${(cpuMs() - start).toFixed(0)} ms CPU ${file}`);
}
console.log(`${failures()} failed`);
process.exit(0);
