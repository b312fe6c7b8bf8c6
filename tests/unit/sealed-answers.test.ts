import { describe, expect, test } from 'bun:test';
import { loadConfig } from '../../src/config.ts';
import { securityHeaders } from '../../src/http/security.ts';
import { isSealed, sealedHeaders, sealedResponse } from '../../src/http/sealed-answers.ts';
import { answerPingFirst } from '../../src/routes/health.ts';
import type { RequestEnv } from '../../src/http/context.ts';

/*
 * Answers made before the router (a kept page, /ping) carry the security headers from the start,
 * the same ones security.ts sets on any answer of that path and type; observe.ts then leaves them.
 */

const config = loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: 'admin-secret', ADMIN_PIN: '246810' });

/** The security headers as observe.ts sets them on an answer the route gave. */
async function routeSealed(headers: HeadersInit, path: string): Promise<Record<string, string>> {
  const target = new Headers(headers);
  await securityHeaders(config)(target, path, target.get('content-type'));
  return Object.fromEntries(target);
}

const envOf = (path: string) => ({ path }) as RequestEnv;
const routeAnswer = () => new Response('from the route');

describe('sealed answers', () => {
  test('a kept page gets the headers the route would get once sealed, for its path and type, and is marked sealed', async () => {
    const seal = securityHeaders(config);
    const kept = new Headers({ 'content-type': 'text/html; charset=UTF-8', 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    // The first use computes the security headers: that answer goes the ordinary way.
    expect(sealedHeaders(kept, '/', seal)).toBeNull();
    await seal(new Headers(), '/', null);
    for (const path of ['/', '/auth/reset']) {
      const headers = sealedHeaders(kept, path, seal)!;
      expect(Object.fromEntries(headers)).toEqual(await routeSealed(kept, path));
      const response = sealedResponse(new Blob(['page']), 200, headers);
      expect(isSealed(response)).toBe(true);
      // Each answer has headers of its own (observe.ts sets its request id on them).
      response.headers.set('x-request-id', 'one');
      expect(headers.has('x-request-id')).toBe(false);
    }
    expect(Object.keys(Object.fromEntries(sealedHeaders(kept, '/', seal)!))).toContain('permissions-policy');
    expect(isSealed(new Response('plain'))).toBe(false);
  });

  test('a GET of /ping is answered before the router, sealed, once the security headers are known; a HEAD and other paths go to the route', async () => {
    const seal = securityHeaders(config);
    const ping = answerPingFirst(seal, routeAnswer);
    const get = (path: string, method = 'GET') => ping(new Request(`http://localhost${path}`, { method }), envOf(path)) as Response;
    // Before the headers are known, the route answers (as it always did).
    expect(await get('/ping').text()).toBe('from the route');
    await seal(new Headers(), '/', null);
    const early = get('/ping');
    expect(isSealed(early)).toBe(true);
    expect(early.status).toBe(200);
    expect(await early.text()).toBe('pong');
    expect(Object.fromEntries(early.headers)).toEqual(await routeSealed({}, '/ping'));
    expect(await get('/ping', 'HEAD').text()).toBe('from the route');
    expect(await get('/pings').text()).toBe('from the route');
  });
});
