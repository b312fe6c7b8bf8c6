import { readFileSync } from 'node:fs';
import { startServer } from '../tests/helpers/server.ts';

/** wrk runs for the benches: one thread, 32 connections, gzip; requests/s, p99 and non-2xx/3xx. */
export interface WrkRow {
  rps: number;
  p99: number;
  errors: string;
}

export function requireWrk(): void {
  if (Bun.which('wrk')) return;
  console.error('wrk is not installed: apt-get install -y wrk');
  process.exit(1);
}

export function wrk(url: string, seconds: number, headers: string[] = [], script?: string): WrkRow {
  const args = ['wrk', '-t1', '-c32', `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: gzip', ...headers.flatMap((h) => ['-H', h])];
  if (script) args.push('-s', script);
  const out = Bun.spawnSync([...args, url], { stdout: 'pipe', stderr: 'pipe' }).stdout.toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99Text = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = p99Text ? Number(p99Text[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[p99Text[2]!]! : Number.NaN;
  return { rps, p99, errors: /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0' };
}

/**
 * A bare `Bun.serve` answering "ok" in a process of its own: the floor of any HTTP answer on
 * this machine, against which /ping's middleware is measured.
 */
export async function bareServer(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = Bun.spawn(
    [process.execPath, '-e', "const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') }); console.log(s.port);"],
    { stdout: 'pipe', stderr: 'inherit' },
  );
  const reader = child.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the bare server did not start');
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    url: `http://127.0.0.1:${text.trim()}`,
    pid: child.pid,
    stop: async () => {
      child.kill();
      await child.exited;
    },
  };
}

export const median = <T>(values: T[], by: (value: T) => number): T => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;

/** CPU time (user + system) a process has used, in microseconds, from /proc (Linux). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are the 14th and 15th fields of the line, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The demo store in production mode as every bench runs it (test payments, no mail, no rate limits); `env` adds or overrides. */
export function benchServer(env: Record<string, string> = {}) {
  return startServer({
    quiet: true,
    env: {
      NODE_ENV: 'production',
      // Production requires the key that seals unrevealed draw seeds (issue 36).
      SEED_KEY: '5e'.repeat(32),
      MAIL: 'off',
      SEED_DEMO: '1',
      PAYMENTS: 'test',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'bench-admin-pass',
      ADMIN_PIN: '123456',
      ...env,
    },
  });
}
