import { connect } from 'node:net';
import { TEST_ORIGIN } from './app.ts';

/*
 * Requests as they arrive over a socket, for what app.request() cannot show: the peer address a
 * request comes from (proxy trust, per-client limits), and a Host header that is empty or
 * malformed, which fetch() never sends.
 */

type FetchingApp = { fetch: (request: Request, env?: unknown) => Response | Promise<Response> };

/** The app's answer to a request whose socket peer is `peer` (what Bun's server.requestIP says); Origin is sent on writes. */
export function fromPeer(app: FetchingApp, peer: string, path: string, init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {}) {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { ...(method === 'GET' ? {} : { origin: TEST_ORIGIN }), ...init.headers };
  const server = { requestIP: () => ({ address: peer, family: peer.includes(':') ? 'IPv6' : 'IPv4', port: 40_000 }) };
  return Promise.resolve(app.fetch(new Request(`${TEST_ORIGIN}${path}`, { ...init, method, headers, redirect: 'manual' }), server));
}

/** The app on a real socket of this process, on 127.0.0.1 and a free port. */
export function serveApp(app: FetchingApp) {
  return Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, server) => app.fetch(request, server) });
}

/**
 * Writes `head` (request line and headers, CRLF-separated, without the blank line) on a new
 * connection and reads the answer until the server closes it.
 */
export function rawRequest(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, headers: text.slice(0, split), body: text.slice(split + 4) });
    });
  });
}
