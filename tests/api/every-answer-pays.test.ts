import { describe, expect, test } from 'bun:test';
import { seededApp } from '../helpers/app.ts';

/*
 * What every request pays (issue 26, point 11) is paid by /ping too: the cheapest answer
 * carries the same security headers that mean something on any answer and its own request id as a
 * page, and is counted in the metrics like one. The bench's /ping figure measures that whole cost,
 * nothing skipped. The policies of a rendered document come with documents only (security.ts).
 */

const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
];
const DOCUMENT_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

const securityHeadersOf = (response: Response) => Object.fromEntries(SECURITY_HEADERS.map((name) => [name, response.headers.get(name)]));

describe('the middleware every request pays', () => {
  test('/ping carries the same security headers as a page, a product page, a 404 and /healthz (pages add the document policies), and its own request id', async () => {
    const ctx = await seededApp();
    const client = ctx.client();
    const product = ctx.db.$client.query('select id from products order by id limit 1').get() as { id: number };
    const answers = await Promise.all(['/ping', '/', `/product/${product.id}`, '/no-such-page', '/healthz'].map((path) => client.get(path)));
    const ping = answers[0]!;
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('pong');
    for (const name of SECURITY_HEADERS) expect(ping.headers.get(name)).toBeString();
    for (const answer of answers) expect(securityHeadersOf(answer)).toEqual(securityHeadersOf(ping));
    for (const name of DOCUMENT_HEADERS) {
      expect(ping.headers.get(name)).toBeNull();
      expect(answers[1]!.headers.get(name)).toBeString();
      expect(answers[2]!.headers.get(name)).toBeString();
    }
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('a proxy-given request id is kept on /ping as on a page', async () => {
    const client = (await seededApp()).client();
    for (const path of ['/ping', '/'])
      expect((await client.get(path, { headers: { 'x-request-id': 'from-the-proxy-1' } })).headers.get('x-request-id')).toBe('from-the-proxy-1');
  });

  test('/ping answered before the router (every one after the first) is the answer the route gives: same body and headers, its own id, counted in the metrics', async () => {
    const client = (await seededApp()).client();
    const pings = [];
    for (let i = 0; i < 4; i++) pings.push(await client.get('/ping'));
    const withoutId = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name !== 'x-request-id'));
    for (const ping of pings) {
      expect(ping.status).toBe(200);
      expect(await ping.text()).toBe('pong');
      expect(withoutId(ping)).toEqual(withoutId(pings[0]!));
      expect(ping.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
    }
    expect(new Set(pings.map((ping) => ping.headers.get('x-request-id'))).size).toBe(4);
    const text = await (await client.get('/metrics')).text();
    expect(text).toContain('csa_http_requests_total{method="GET",route="/ping",status="200"} 4');
  });

  test('every /ping is counted in the metrics by its route, with its duration', async () => {
    const client = (await seededApp()).client();
    for (let i = 0; i < 3; i++) expect((await client.get('/ping')).status).toBe(200);
    const text = await (await client.get('/metrics')).text();
    expect(text).toContain('csa_http_requests_total{method="GET",route="/ping",status="200"} 3');
    expect(text).toContain('csa_http_request_duration_seconds_count{method="GET",route="/ping"} 3');
    expect(text).toContain('csa_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/ping"} 3');
  });
});
