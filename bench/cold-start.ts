/**
 * Cold start: from spawning the server on an empty DATA_DIR (migrate + seed + admin) to the
 * first 200 on `/`, for the source entry and the compiled binary. Median of N runs.
 * Usage: bun bench/cold-start.ts [runs=5]   (the binary needs `bun run build:binary`)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dir, '..');
const runs = Number(process.argv[2] ?? 5);

async function once(command: string[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'csa-bench-'));
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  const started = performance.now();
  const child = Bun.spawn(command, {
    cwd: dataDir,
    env: { ...process.env, PORT: String(port), DATA_DIR: join(dataDir, 'data'), ADMIN_PASSWORD: 'bench-pass', ADMIN_PIN: '1234', SHUTDOWN_DRAIN_MS: '0' },
    stdout: 'ignore',
    stderr: 'ignore',
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://localhost:${port}/`);
        if (response.status === 200) {
          await response.arrayBuffer();
          return performance.now() - started;
        }
      } catch {
        // not yet listening
      }
      if (performance.now() - started > 30_000) throw new Error('no response within 30 s');
      await Bun.sleep(5);
    }
  } finally {
    child.kill();
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const targets: [string, string[]][] = [['source (bun src/server.ts)', [process.execPath, join(root, 'src/server.ts')]]];
if (existsSync(join(root, 'dist/csa'))) targets.push(['binary (dist/csa)', [join(root, 'dist/csa')]]);
for (const [name, command] of targets) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once(command));
  console.log(
    `${name}: cold start to first 200 on / — median ${median(times).toFixed(0)} ms over ${runs} runs (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
  );
}
