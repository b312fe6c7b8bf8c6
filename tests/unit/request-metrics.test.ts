import { describe, expect, test } from 'bun:test';
import { Registry } from 'prom-client';
import { requestMetrics } from '../../src/request-metrics.ts';

/*
 * The request metrics every answer feeds (request-metrics.ts) keep one series per method, route
 * and status, however the observations come in, and prom-client prints them as its own would.
 */

describe('the request metrics', () => {
  test('count each method, route and status apart, with their durations', async () => {
    const registry = new Registry();
    const observe = requestMetrics(registry, [0.01, 0.1]);
    observe('GET', '/ping', 200, 0.001);
    observe('GET', '/product/:id', 200, 0.05);
    observe('GET', '/product/:id', 404, 0.002);
    observe('HEAD', '/product/:id', 200, 0.2);
    observe('GET', '/product/:id', 200, 0.005);
    observe('GET', '/ping', 200, 0.001);
    const text = await registry.metrics();
    expect(text).toContain('csa_http_requests_total{method="GET",route="/ping",status="200"} 2');
    expect(text).toContain('csa_http_requests_total{method="GET",route="/product/:id",status="200"} 2');
    expect(text).toContain('csa_http_requests_total{method="GET",route="/product/:id",status="404"} 1');
    expect(text).toContain('csa_http_requests_total{method="HEAD",route="/product/:id",status="200"} 1');
    // Durations by method and route, every status together.
    expect(text).toContain('csa_http_request_duration_seconds_count{method="GET",route="/product/:id"} 3');
    expect(text).toContain('csa_http_request_duration_seconds_bucket{le="0.01",method="GET",route="/product/:id"} 2');
    expect(text).toContain('csa_http_request_duration_seconds_bucket{le="+Inf",method="HEAD",route="/product/:id"} 1');
    expect(text.match(/^csa_http_requests_total\{/gm)).toHaveLength(4);
  });
});
