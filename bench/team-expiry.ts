/**
 * Issue 29's figure for team buys: the cost of the teams job with 10,000 open teams past their
 * 24 hours. (1) In a real server process: the teams expire on the job's next tick (under the
 * jobs lease, every minute) while GET /ping is asked all along; /ping's rate while the job runs
 * as a share of its rate before, and the job's wall time. (2) In process: the job's own time per
 * team (test gateway, every hold voided on the spot).
 * Usage: bun bench/team-expiry.ts [teams=10000] [concurrency=16]
 * The figures move with the machine's other load: compare the share, not the absolute numbers.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { ManualClock } from '../src/domain/clock.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { runTeamJobs } from '../src/domain/promotions/teams-expiry.ts';
import { benchServer } from './wrk.ts';

const teamCount = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 16);

/** Writes `count` open teams (one starter each, the hold authorized, a unit reserved) that ended at `expiresAt`. */
function openTeams(file: Database, count: number, expiresAt: number): void {
  const now = Date.now();
  const { id: productId, price } = file.query('select id, price_cents as price from products where buy_now_enabled = 1 order by id limit 1').get() as {
    id: number;
    price: number;
  };
  const half = Math.ceil(price / 2);
  const tax = Math.round(half * 0.08);
  file.query('update products set half_price_enabled = 1, quantity = 5 where id = ?').run(productId);
  const user = file.query('insert into users (username, password_hash, created_at) values (?, ?, ?) returning id');
  const team = file.query(
    "insert into teams (code, product_id, starter_id, status, price_cents, tax_cents, hold_cents, expires_at, created_at, updated_at) values (?, ?, ?, 'open', ?, ?, ?, ?, ?, ?) returning id",
  );
  const payment = file.query(
    "insert into payments (user_id, kind, status, amount_cents, gateway, gateway_payment_id, idempotency_key, created_at, updated_at) values (?, 'team_authorization', 'authorized', ?, 'test', ?, ?, ?, ?) returning id",
  );
  const member = file.query(
    "insert into team_members (team_id, user_id, role, status, payment_id, created_at, updated_at) values (?, ?, 'starter', 'held', ?, ?, ?)",
  );
  file.transaction(() => {
    for (let i = 0; i < count; i++) {
      const { id: userId } = user.get(`bench_team_${i}`, 'x', now) as { id: number };
      const { id: teamId } = team.get(`bench${String(i).padStart(5, '0')}`, productId, userId, half, tax, half + tax, expiresAt, now - 86_400_000, now) as {
        id: number;
      };
      const { id: paymentId } = payment.get(userId, half + tax, `test-pay-bench-${i}`, `bench-hold-tm${i}`, now, now) as { id: number };
      member.run(teamId, userId, paymentId, now, now);
    }
  })();
}

// ------------------------------------------------------------------ (1) the job in a real process vs /ping
const server = await benchServer({ LOG_LEVEL: 'warn' });
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'));
  file.exec('pragma busy_timeout = 10000');
  openTeams(file, teamCount, Date.now() - 1000);
  const expired = () => (file.query("select count(*) as n from teams where status = 'expired'").get() as { n: number }).n;

  // One-second windows of /ping at `concurrency`, each with how many teams had expired by its end.
  const windows: { rate: number; expired: number; worstMs: number }[] = [];
  const deadline = performance.now() + 150_000;
  while (performance.now() < deadline) {
    const end = performance.now() + 1000;
    let done = 0;
    let worstMs = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          const started = performance.now();
          await fetch(`${server.url}/ping`);
          worstMs = Math.max(worstMs, performance.now() - started);
          done++;
        }
      }),
    );
    windows.push({ rate: done, expired: expired(), worstMs });
    const last = windows.at(-1)!;
    // Three quiet windows after the last team expired: enough to compare.
    if (last.expired === teamCount && windows.filter((w) => w.expired === teamCount).length >= 3) break;
  }
  file.close();
  const before = windows.filter((w) => w.expired === 0);
  const during = windows.filter((w, i) => w.expired > 0 && (i === 0 || windows[i - 1]!.expired < teamCount));
  const mean = (list: typeof windows) => list.reduce((sum, w) => sum + w.rate, 0) / Math.max(1, list.length);
  console.log(`one server process, ${teamCount} open teams past their end, /ping at ${concurrency} clients in 1 s windows`);
  console.log('| windows | /ping answers/s | share of /ping before | worst /ping (ms) |');
  console.log('|---|---:|---:|---:|');
  console.log(`| before the job (${before.length} s) | ${mean(before).toFixed(0)} | 100% | ${Math.max(0, ...before.map((w) => w.worstMs)).toFixed(0)} |`);
  console.log(
    `| while the job expires them (${during.length} s) | ${mean(during).toFixed(0)} | ${((100 * mean(during)) / Math.max(1, mean(before))).toFixed(1)}% | ${Math.max(0, ...during.map((w) => w.worstMs)).toFixed(0)} |`,
  );
  console.log(`expired: ${windows.at(-1)?.expired ?? 0} of ${teamCount}`);
} finally {
  await server.stop();
}

// ------------------------------------------------------------------ (2) the job's own cost per team, in process
const db = await openMigratedDatabase();
const clock = new ManualClock(Date.now());
seedIfEmpty(db, clock);
openTeams(db.$client, teamCount, clock.now() - 1000);
const started = performance.now();
const report = await runTeamJobs({ db, clock, gateway: createTestGateway() });
const ms = performance.now() - started;
console.log(
  `\nteams job in process: ${report.expired} teams expired (holds voided up to the per-tick cap, units back, starters told) in ${ms.toFixed(0)} ms: ${(ms / Math.max(1, report.expired)).toFixed(3)} ms each`,
);
