import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';

export const E2E_ADMIN = { username: 'admin', password: 'admin-e2e-pass', pin: '135790' };

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server process, to send it signals. */
  child: ReturnType<typeof Bun.spawn>;
  output: () => string;
  /**
   * The output once it contains `text`: the server writes its log lines in batches, at least
   * every 250 ms (src/log.ts), so a line shows up shortly after what it reports.
   */
  outputContaining: (text: string, timeoutMs?: number) => Promise<string>;
  stop: () => Promise<void>;
}

export function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/**
 * Starts the real store (from source, or the compiled binary) on a free port with a fresh
 * DATA_DIR, and resolves once it answers /healthz.
 */
export async function startServer(
  options: {
    binary?: string;
    env?: Record<string, string>;
    cwd?: string;
    /** Reuse this folder (a restart); stop() then leaves it. */
    dataDir?: string;
    /** Throw stdout away (a benchmark's thousands of log lines); stderr is still kept. */
    quiet?: boolean;
    /** Listen here (a restart behind a proxy that knows the port), else on a free port. */
    port?: number;
  } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'csa-e2e-'));
  const port = options.port ?? freePort();
  const url = `http://localhost:${port}`;
  const command = options.binary ? [options.binary] : [process.execPath, join(projectRoot, 'src/server.ts')];
  let output = '';
  const child = Bun.spawn(command, {
    cwd: options.cwd ?? dataDir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: join(dataDir, 'data'),
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ADMIN_PIN: E2E_ADMIN.pin,
      // Stops at once; the tests of the drain a balancer needs set it (graceful-shutdown.test.ts).
      SHUTDOWN_DRAIN_MS: '0',
      ...options.env,
    },
    stdout: options.quiet ? 'ignore' : 'pipe',
    stderr: 'pipe',
  });
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  if (child.stdout instanceof ReadableStream) void collect(child.stdout);
  void collect(child.stderr);

  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 20_000) {
      child.kill();
      throw new Error(`server did not answer within 20 s:\n${output}`);
    }
    await Bun.sleep(50);
  }
  return {
    url,
    dataDir,
    child,
    output: () => output,
    outputContaining: async (text, timeoutMs = 3000) => {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text) && Date.now() < deadline) await Bun.sleep(25);
      return output;
    },
    stop: async () => {
      child.kill();
      await child.exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
