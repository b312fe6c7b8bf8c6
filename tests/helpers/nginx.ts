import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = '/usr/sbin/nginx';

export interface RunningNginx {
  url: string;
  dir: string;
  /** nginx's access log: one line per request, `status upstream_status upstream_addr method uri`. */
  accessLog: () => string[];
  errorLog: () => string;
  /**
   * Marks upstreams `down` (or back up) and reloads nginx, the way an operator takes a process
   * out before restarting it: resolves once the old workers, with their kept-alive connections
   * to the stores, have finished their requests and exited.
   */
  setDown: (ports: number[]) => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * The proxy block docs/operations.md gives operators, for upstreams on this machine: HTTP/1.1
 * kept-alive connections to the stores, closed by nginx after `keepaliveTimeout` (shorter than
 * the stores' SHUTDOWN_DRAIN_MS, so nginx never sends a request on a connection a store is
 * closing), and a request that could not reach one store (refused, reset before it was sent)
 * tried on the next; POSTs are never sent twice (no `non_idempotent`). `max_fails=0`: the stores
 * share one machine (one SQLite file), so a refused connection costs microseconds, and nginx
 * never takes a store out for `fail_timeout` after a restart (with two restarts in a row that
 * left no store at all: 502 "no live upstreams").
 */
export function nginxConfig(dir: string, port: number, upstreams: number[], options: { keepaliveTimeout?: string; down?: number[] } = {}): string {
  const asRoot = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${asRoot}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format store '$status $upstream_status $upstream_addr $request_method $uri';
  access_log ${dir}/access.log store;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  upstream store {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0${options.down?.includes(p) ? ' down' : ''};`).join('\n')}
    keepalive 32;
    keepalive_timeout ${options.keepaliveTimeout ?? '4s'};
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://store;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
    }
  }
}
`;
}

/** Debian's nginx in front of `upstreams` (ports on 127.0.0.1), on `port`, from a temporary folder. */
export async function startNginx(port: number, upstreams: number[], options: { keepaliveTimeout?: string } = {}): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx (.ci/run does)`);
  const dir = mkdtempSync(join(tmpdir(), 'csa-nginx-'));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams, options));
  let output = '';
  const child = Bun.spawn([NGINX, '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  void (async () => {
    for await (const chunk of child.stderr) output += new TextDecoder().decode(chunk);
  })();
  const url = `http://localhost:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(`${url}/ping`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() - started > 10_000) throw new Error(`nginx did not answer within 10 s:\n${output}`);
    await Bun.sleep(50);
  }
  const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  return {
    url,
    dir,
    accessLog: () => read('access.log').split('\n').filter(Boolean),
    errorLog: () => read('error.log'),
    setDown: async (down) => {
      writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams, { ...options, down }));
      const before = workersOf(child.pid);
      child.kill('SIGHUP');
      const deadline = Date.now() + 20_000;
      for (;;) {
        const now = workersOf(child.pid);
        if (now.length > 0 && !now.some((pid) => before.includes(pid))) break;
        if (Date.now() > deadline) throw new Error(`nginx did not reload within 20 s:\n${read('error.log')}`);
        await Bun.sleep(25);
      }
    },
    stop: async () => {
      child.kill('SIGQUIT');
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The worker processes of an nginx master (its children). */
function workersOf(master: number): number[] {
  const found = Bun.spawnSync(['pgrep', '-P', String(master)]);
  return new TextDecoder().decode(found.stdout).split('\n').filter(Boolean).map(Number);
}
