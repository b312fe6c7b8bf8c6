/**
 * No page costs more as the shop grows (issue 26): a store with a synthetic year of history
 * (bench/year-data.ts) and 400 open games (200 live, 200 filling), served by the real server
 * in production mode with JSON logs at info; each page's requests/s with wrk as a share of
 * /ping measured around it in the same run, and /ping as a share of a bare Bun.serve.
 * Usage: bun bench/scoreboard-year.ts [seconds=4] [rounds=3]    (OPEN_GAMES=400, YEAR_GAMES=18000)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { systemClock } from '../src/domain/clock.ts';
import { COMPLETE_PROFILE } from '../tests/helpers/actors.ts';
import { Client } from '../tests/helpers/http-client.ts';
import { startServer } from '../tests/helpers/server.ts';
import { bareServer, median, requireWrk, wrk, type WrkRow } from './wrk.ts';
import { buildYear } from './year-data.ts';

const seconds = Number(process.argv[2] ?? 4);
const rounds = Number(process.argv[3] ?? 3);
const OPEN = Number(process.env.OPEN_GAMES ?? 400);
const YEAR_GAMES = Number(process.env.YEAR_GAMES ?? 18_000);
requireWrk();

const dir = mkdtempSync(join(tmpdir(), 'csa-scoreboard-year-'));
mkdirSync(join(dir, 'data'));
const built = performance.now();
{
  const db = await openMigratedDatabase(join(dir, 'data', 'store.db'));
  seedIfEmpty(db, systemClock);
  buildYear(db, Date.now(), { games: YEAR_GAMES, openGames: OPEN, snapshotRows: 200_000 });
  db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.$client.close();
}
console.log(`built a year (${YEAR_GAMES} settled games) and ${OPEN} open games in ${((performance.now() - built) / 1000).toFixed(0)} s`);

const server = await startServer({
  quiet: true,
  dataDir: dir,
  env: {
    NODE_ENV: 'production',
    // Production requires the key that seals unrevealed draw seeds (issue 36).
    SEED_KEY: '5e'.repeat(32),
    MAIL: 'off',
    SEED_DEMO: '0',
    PAYMENTS: 'test',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD: 'bench-admin-pass',
    ADMIN_PIN: '123456',
  },
});
const bare = await bareServer();
try {
  const { Database } = await import('bun:sqlite');
  const sqlite = new Database(join(dir, 'data', 'store.db'));
  const product = sqlite.query("select id from products where model = 'RB3025-L0205'").get() as { id: number } | null;
  const productId = product?.id ?? (sqlite.query('select id from products order by id limit 1').get() as { id: number }).id;

  const shopper = new Client(server);
  await shopper.ok('POST', '/api/register', { username: 'year-shopper', password: 'secret-pass' });
  await shopper.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  // A year of a keen player: the shopper takes the place of another player in 300 settled games.
  const shopperId = (sqlite.query("select id from users where username = 'year-shopper'").get() as { id: number }).id;
  sqlite.exec(
    `update plays set user_id = ${shopperId} where id in (select min(p.id) from plays p join games g on g.id = p.game_id where g.status = 'completed' group by p.game_id order by p.game_id desc limit 300)`,
  );
  sqlite.close();
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: 'admin', password: 'bench-admin-pass' });
  await admin.ok('POST', '/api/admin/pin', { pin: '123456' });

  const shopperCookie = `Cookie: ${shopper.cookie}`;
  const adminCookie = `Cookie: ${admin.cookie}`;
  const targets: { what: string; url: string; headers?: string[] }[] = [
    { what: 'visitor /scoreboard', url: '/scoreboard' },
    { what: 'visitor /scoreboard?tab=winners', url: '/scoreboard?tab=winners' },
    { what: 'signed-in /scoreboard?tab=my-games', url: '/scoreboard?tab=my-games', headers: [shopperCookie] },
    { what: 'visitor /', url: '/' },
    { what: `visitor /product/${productId}`, url: `/product/${productId}` },
    { what: 'signed-in /profile (orders)', url: '/profile', headers: [shopperCookie] },
    { what: 'admin /admin?tab=orders', url: '/admin?tab=orders', headers: [adminCookie] },
    { what: 'admin /admin?tab=games', url: '/admin?tab=games', headers: [adminCookie] },
    { what: 'admin /admin?tab=book', url: '/admin?tab=book', headers: [adminCookie] },
    { what: 'admin /admin?tab=influencers', url: '/admin?tab=influencers', headers: [adminCookie] },
    { what: 'admin /admin?tab=applications', url: '/admin?tab=applications', headers: [adminCookie] },
  ];
  for (const target of targets) {
    const response = await fetch(server.url + target.url, {
      headers: Object.fromEntries((target.headers ?? []).map((h) => h.split(': ') as [string, string])),
    });
    if (response.status !== 200) throw new Error(`${target.url}: ${response.status}`);
  }
  const measure = (url: string, headers: string[] = []): WrkRow => {
    wrk(url, 1, headers);
    return wrk(url, seconds, headers);
  };
  const shares = targets.map(() => [] as { share: number; row: WrkRow }[]);
  const pings: WrkRow[] = [];
  const bares: WrkRow[] = [];
  for (let round = 0; round < rounds; round++) {
    bares.push(measure(bare.url));
    let before = measure(`${server.url}/ping`);
    pings.push(before);
    for (const [index, target] of targets.entries()) {
      const row = measure(server.url + target.url, target.headers);
      const after = wrk(`${server.url}/ping`, seconds);
      pings.push(after);
      shares[index]!.push({ share: row.rps / ((before.rps + after.rps) / 2), row });
      before = after;
    }
    bares.push(wrk(bare.url, seconds));
  }
  const ping = median(pings, (row) => row.rps);
  const floor = median(bares, (row) => row.rps);
  console.log(
    `\nwrk, 1 thread, 32 connections, ${seconds} s each, gzip; NODE_ENV=production, JSON logs at info; ${OPEN} open games; median of ${rounds} rounds\n`,
  );
  console.log('| what | requests/s | p99 | share of /ping | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| bare Bun.serve "ok" | ${floor.rps.toFixed(0)} | ${floor.p99.toFixed(2)} ms | ${((floor.rps / ping.rps) * 100).toFixed(0)}% | ${floor.errors} |`,
  );
  console.log(
    `| /ping (${((ping.rps / floor.rps) * 100).toFixed(0)}% of bare Bun.serve) | ${ping.rps.toFixed(0)} | ${ping.p99.toFixed(2)} ms | 100% | ${ping.errors} |`,
  );
  for (const [index, target] of targets.entries()) {
    const { share, row } = median(shares[index]!, (entry) => entry.share);
    console.log(`| ${target.what} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(2)} ms | ${(share * 100).toFixed(1)}% | ${row.errors} |`);
  }
} finally {
  await bare.stop();
  await server.stop();
  if (process.env.BENCH_KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
