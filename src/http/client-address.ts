import proxyaddr from 'proxy-addr';
import type { Server } from 'bun';
import type { Config } from '../config.ts';
import type { AppContext, AppEnv } from './context.ts';

/*
 * Who sent the request, behind a reverse proxy (docs/operations.md, "Behind a proxy").
 * X-Forwarded-For and X-Forwarded-Proto are believed only from the peers TRUST_PROXY names
 * (these addresses; outside production also the nearest N hops, whoever they are), through
 * Express's `proxy-addr`; without TRUST_PROXY both headers are ignored, so nobody can choose
 * their own address.
 */

type Trust = (address: string, hop: number) => boolean;
const compiled = new WeakMap<Config['trustProxy'], Trust>();

function trustOf(setting: Config['trustProxy']): Trust {
  let trust = compiled.get(setting);
  if (!trust) {
    if (setting.kind === 'off') trust = () => false;
    else if (setting.kind === 'hops') trust = (_address, hop) => hop < setting.hops;
    else trust = proxyaddr.compile(setting.addresses);
    compiled.set(setting, trust);
  }
  return trust;
}

/** The socket's peer, whatever any header says; 'local' when there is none (app.request() in tests). */
export function peerOf(request: Request, server: Server<undefined> | undefined): string {
  try {
    return server?.requestIP(request)?.address ?? 'local';
  } catch {
    return 'local';
  }
}

export function peerAddress<E extends AppEnv>(c: AppContext<E>): string {
  return peerOf(c.req.raw, c.env.server);
}

/** The client's address: the peer, or the first untrusted address of X-Forwarded-For behind trusted proxies. */
export function clientIp<E extends AppEnv>(c: AppContext<E>): string {
  return clientAddressOf(c.req.raw, c.env.server, c.env.deps.config.trustProxy);
}

/** clientIp() before the app has a context (the request's log line, observe.ts). */
export function clientAddressOf(request: Request, server: Server<undefined> | undefined, trustProxy: Config['trustProxy']): string {
  const peer = peerOf(request, server);
  const trust = trustOf(trustProxy);
  if (!trust(peer, 0)) return peer;
  const forwarded = request.headers.get('x-forwarded-for');
  // proxy-addr reads a Node request; these are the two fields it looks at.
  const nodeRequest = { connection: { remoteAddress: peer }, socket: { remoteAddress: peer }, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} };
  return proxyaddr(nodeRequest as unknown as Parameters<typeof proxyaddr>[0], trust);
}

/** True when the browser's request came over https: to us, or to a trusted proxy that says so. */
export function cameOverHttps<E extends AppEnv>(c: AppContext<E>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (!trustOf(c.env.deps.config.trustProxy)(peerAddress(c), 0)) return false;
  // A chain of proxies appends; the first value is what the browser used.
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/** True for requests from this machine itself (the /metrics default). */
export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * A request made on this machine for itself: the socket's peer is loopback (never an address a
 * header names, which anyone can write) and no proxy forwarded it. A proxy on this machine is a
 * loopback peer too, but it passes on someone else's request and says so in X-Forwarded-For.
 */
export function isFromThisMachine<E extends AppEnv>(c: AppContext<E>): boolean {
  const peer = peerAddress(c);
  if (peer !== 'local' && !isLoopback(peer)) return false;
  return c.req.header('x-forwarded-for') === undefined && c.req.header('forwarded') === undefined && c.req.header('x-real-ip') === undefined;
}
