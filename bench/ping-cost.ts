/**
 * What the middleware every request pays costs: /ping and the visitor pages as shares of a bare
 * `Bun.serve` answering "ok", all measured in the same run (docs/operations.md, "Capacity").
 * Rows are interleaved round by round (bare, /ping, /, /product/{id}) because this machine's
 * speed drifts between minutes; the median share of the rounds is reported. Beside requests/s,
 * the server process's own CPU time per answer (from /proc), which other load on the machine
 * disturbs far less: its share of bare is bare's CPU per answer over the row's.
 * Usage: bun bench/ping-cost.ts [seconds=3] [rounds=5]    Needs `apt-get install wrk`.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { bareServer, benchServer, cpuMicros, median, requireWrk, type WrkRow, wrk } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 5);
requireWrk();

const server = await benchServer();
const bare = await bareServer();
try {
  const db = new Database(join(server.dataDir, 'data', 'store.db'), { readonly: true });
  const { id } = db.query('select id from products order by id limit 1').get() as { id: number };
  db.close();
  const targets = [
    { what: 'bare Bun.serve "ok"', url: bare.url, pid: bare.pid },
    { what: '/ping', url: `${server.url}/ping`, pid: server.child.pid },
    { what: 'visitor /', url: `${server.url}/`, pid: server.child.pid },
    { what: `visitor /product/${id}`, url: `${server.url}/product/${id}`, pid: server.child.pid },
  ];
  for (const target of targets) wrk(target.url, 2);
  const runs = targets.map(() => [] as WrkRow[]);
  const cpu = targets.map(() => [] as number[]);
  const shares = targets.map(() => [] as { ofBare: number; ofPing: number }[]);
  for (let round = 0; round < rounds; round++) {
    const rows = targets.map((target, index) => {
      const before = cpuMicros(target.pid);
      const row = wrk(target.url, seconds);
      cpu[index]!.push((cpuMicros(target.pid) - before) / (row.rps * seconds));
      runs[index]!.push(row);
      return row;
    });
    for (const [index, row] of rows.entries()) shares[index]!.push({ ofBare: row.rps / rows[0]!.rps, ofPing: row.rps / rows[1]!.rps });
  }
  console.log(`wrk, 1 thread, 32 connections, ${seconds} s each, gzip; NODE_ENV=production, JSON logs at info; median of ${rounds} interleaved rounds\n`);
  console.log('| what | requests/s | p99 | share of bare | share of /ping | server CPU per answer | share of bare by CPU | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const bareCpu = median(cpu[0]!, (micros) => micros);
  for (const [index, target] of targets.entries()) {
    const row = median(runs[index]!, (r) => r.rps);
    const ofBare = median(shares[index]!, (s) => s.ofBare).ofBare;
    const ofPing = median(shares[index]!, (s) => s.ofPing).ofPing;
    const perAnswer = median(cpu[index]!, (micros) => micros);
    console.log(
      `| ${target.what} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(2)} ms | ${(ofBare * 100).toFixed(1)}% | ${(ofPing * 100).toFixed(1)}% | ${perAnswer.toFixed(1)} µs | ${((bareCpu / perAnswer) * 100).toFixed(1)}% | ${row.errors} |`,
    );
  }
} finally {
  await bare.stop();
  await server.stop();
}
