import type { Registry } from 'prom-client';

/*
 * The two metrics every request feeds (csa_http_requests_total and
 * csa_http_request_duration_seconds), kept as plain numbers and handed to prom-client's
 * registry only when /metrics is scraped. prom-client hashes the label set on every inc() and
 * observe(), bound children included: a tenth of what a /ping cost. The text is the same.
 */

interface Durations {
  labels: { method: string; route: string };
  /** Per bucket, not cumulative; the last one is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}
interface Series {
  labels: { method: string; route: string; status: string };
  status: number;
  count: number;
  durations: Durations;
}

type Value = { labels: Record<string, string | number>; value: number; metricName?: string };

function metric(registry: Registry, name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) {
  const data = () => ({ name, help, type, aggregator: 'sum' as const, values: values() });
  registry.registerMetric({ name, help, type, aggregator: 'sum', get: async () => data(), reset: () => {} } as never);
}

export function requestMetrics(registry: Registry, bounds: number[]) {
  const series = new Map<string, Series>();
  const durations = new Map<string, Durations>();
  metric(registry, 'csa_http_requests_total', 'HTTP requests answered, by method, route pattern and status.', 'counter', () =>
    [...series.values()].map(({ labels, count }) => ({ labels, value: count })),
  );
  const name = 'csa_http_request_duration_seconds';
  metric(registry, name, 'Time to answer an HTTP request, by method and route pattern.', 'histogram', () =>
    [...durations.values()].flatMap(({ labels, buckets, sum, count }) => {
      let below = 0;
      const values: Value[] = buckets.map((inBucket, index) => {
        below += inBucket;
        return { labels: { le: index < bounds.length ? bounds[index]! : '+Inf', ...labels }, value: below, metricName: `${name}_bucket` };
      });
      values.push({ labels, value: sum, metricName: `${name}_sum` }, { labels, value: count, metricName: `${name}_count` });
      return values;
    }),
  );

  // Each route's series in a short list (a method and a status or two), found without a key string put together per request.
  const byRoute = new Map<string, Series[]>();
  const seriesOf = (method: string, route: string, status: number): Series | undefined => {
    const list = byRoute.get(route);
    if (list !== undefined) for (const one of list) if (one.status === status && one.labels.method === method) return one;
    return undefined;
  };

  return (method: string, route: string, status: number, seconds: number): void => {
    let one = seriesOf(method, route, status);
    if (!one) {
      const durationKey = `${method} ${route}`;
      let routeDurations = durations.get(durationKey);
      if (!routeDurations) {
        routeDurations = { labels: { method, route }, buckets: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 };
        durations.set(durationKey, routeDurations);
      }
      one = { labels: { method, route, status: String(status) }, status, count: 0, durations: routeDurations };
      series.set(`${method} ${status} ${route}`, one);
      let list = byRoute.get(route);
      if (list === undefined) {
        list = [];
        byRoute.set(route, list);
      }
      list.push(one);
    }
    one.count++;
    const d = one.durations;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket++;
    d.buckets[bucket]!++;
    d.sum += seconds;
    d.count++;
  };
}
