import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { gameStatuses, orderStatuses, paymentKinds, paymentStatuses } from '../../src/db/schema.ts';
import type { GameDeps } from '../../src/domain/games/entry.ts';
import type { GatewayCallObserver } from '../../src/domain/payments/observed-gateway.ts';
import { storeJobs } from '../../src/jobs/index.ts';
import { projectRoot } from '../../src/runtime-files.ts';
import { createTelemetry } from '../../src/telemetry.ts';

/*
 * Issue 26 row 10: the guide's alert rules (docs/operations.md, "What to alert on") name only
 * metrics /metrics has and label values they can take, and Prometheus accepts them.
 */

const guide = readFileSync(join(projectRoot, 'docs/operations.md'), 'utf8');
const section = guide.slice(guide.indexOf('### What to alert on'));
const rules = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

const gatewayOutcomes: Parameters<GatewayCallObserver>[1][] = ['ok', 'declined', 'failed', 'uncertain'];

async function knownMetrics() {
  const db = await openMigratedDatabase();
  const telemetry = createTelemetry(db);
  const names = new Set((await telemetry.registry.getMetricsAsJSON()).map((metric) => metric.name));
  const config = loadConfig({ NODE_ENV: 'test' });
  const jobs = storeJobs(db, {} as GameDeps, { retention: config.retention, backup: { ...config.backup, dir: '/backups' }, uploadsDir: '/uploads' }).map(
    (job) => job.name,
  );
  const values: Record<string, Record<string, readonly string[]>> = {
    csa_payments: { kind: paymentKinds, status: paymentStatuses },
    csa_orders: { status: orderStatuses },
    csa_games: { status: gameStatuses },
    csa_job_last_success_timestamp_seconds: { job: jobs },
    csa_job_duration_seconds: { job: jobs },
    csa_job_failures_total: { job: jobs },
    csa_gateway_calls_total: { outcome: gatewayOutcomes },
    csa_emails_total: { outcome: ['sent', 'retry', 'failed'] },
  };
  return { names, values };
}

describe("the guide's alerts", () => {
  test('name only metrics /metrics has, with label values they can take', async () => {
    expect(rules).toContain('groups:');
    const { names, values } = await knownMetrics();
    const used = [...rules.matchAll(/\b(csa_[a-z0-9_]+)(\{[^}]*\})?/g)];
    expect(used.length).toBeGreaterThan(10);
    for (const [, name, matchers] of used) {
      const base = name!.replace(/_(bucket|sum|count)$/, '');
      expect(names.has(name!) || names.has(base), `${name} is not a metric`).toBe(true);
      for (const [, label, op, value] of (matchers ?? '').matchAll(/(\w+)(=~|=)"([^"]*)"/g)) {
        // A pattern over free values (HTTP status 5..) is not checked; alternatives of literals are.
        if (op === '=~' && /[.*+?()[\]]/.test(value!)) continue;
        const allowed = values[base]?.[label!];
        expect(allowed, `no known values for ${base}{${label}}`).toBeDefined();
        for (const one of value!.split('|')) expect(allowed, `${base}{${label}="${one}"}`).toContain(one);
      }
    }
  });

  const promtool = Bun.which('promtool');
  test.skipIf(!promtool)('promtool check rules accepts them', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'csa-rules-')), 'csa.rules.yml');
    writeFileSync(file, rules);
    const check = Bun.spawnSync([promtool!, 'check', 'rules', file], { stdout: 'pipe', stderr: 'pipe' });
    expect(check.exitCode, `${check.stdout}${check.stderr}`).toBe(0);
  });
});
