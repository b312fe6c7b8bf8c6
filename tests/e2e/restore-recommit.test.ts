import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyInUse, openSeed, parseSeedKey, setSeedKey } from '../../src/domain/operations/sealed-seeds.ts';
import { projectRoot } from '../../src/runtime-files.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, startFakeSquare, type FakeSquare } from '../helpers/fake-square.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

setDefaultTimeout(180_000);

/*
 * Issue 36, "A restore hands out known seeds": a store backed up with `backup`, used on, lost and
 * put back with `restore`, on the fake Square. After the restore no draw uses a seed a customer
 * may have seen, the game live at the backup is voided with its holds released and its players
 * told, order ids continue above every id handed out before, and the backup file itself holds no
 * unrevealed seed.
 */

const cleanup: string[] = [];
const servers: RunningServer[] = [];
let fake: FakeSquare | undefined;

const processKey = keyInUse();

afterAll(async () => {
  setSeedKey(processKey);
  for (const server of servers) await server.stop();
  fake?.stop();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

/** The operator's command, in its own process. */
async function cli(args: string[], dataDir: string) {
  const run = Bun.spawn([process.execPath, join(projectRoot, 'src/cli/backups.ts'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { code, out: out + err };
}

async function player(server: RunningServer, name: string): Promise<Client> {
  const client = new Client(server);
  await client.ok('POST', '/api/register', { username: name, password: 'restore-pass-1' });
  await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  await client.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
  return client;
}

async function enter(client: Client, productId: number, influencerIds: string[]): Promise<number> {
  await client.ok('POST', '/api/plays', { productId, influencerIds });
  await client.ok('POST', '/api/payments', { productId, amount: 1, type: 'play' });
  const competition = (await client.ok('GET', `/api/products/${productId}/competition`)) as { gameId?: number; game?: { id: number } };
  return competition.gameId ?? competition.game!.id;
}

async function buyBox(client: Client): Promise<number> {
  const bought = await client.request('POST', '/api/mystery-boxes/sunglasses/orders', {}, { 'idempotency-key': crypto.randomUUID() });
  expect(bought.status).toBe(201);
  return ((await bought.json()) as { orderId: number }).orderId;
}

const boxHash = async (client: Client) =>
  ((await client.ok('GET', '/api/mystery-boxes')) as { type: string; seedHash: string }[]).find((box) => box.type === 'sunglasses')!.seedHash;

/** The seed an order page reveals, and the commitment it shows beside it. */
async function revealedOnOrderPage(client: Client, orderId: number): Promise<{ seed: string; seedHash: string }> {
  const html = await (await client.request('GET', `/orders/${orderId}`)).text();
  const seed = /data-seed="">([0-9a-f]{64})</.exec(html)?.[1];
  const seedHash = /data-seed-hash="">([0-9a-f]{64})</.exec(html)?.[1];
  if (!seed || !seedHash) throw new Error(`order ${orderId} shows no seed`);
  return { seed, seedHash };
}

/** What the store holds, read as only the store can: seeds opened with the store's own key file. */
function storeFile(dataDir: string) {
  setSeedKey(parseSeedKey(readFileSync(join(dataDir, 'seed.key'), 'utf8'))!);
  return new Database(join(dataDir, 'store.db'), { readonly: true });
}

const gameSeed = (db: Database, id: number) => openSeed((db.query('select seed from games where id = ?').get(id) as { seed: string }).seed);

describe('restore re-commits (issue 36)', () => {
  test('after backup and restore: new box and game commitments, the live game voided and its holds released, order ids above all before, no secret seed in the backup', async () => {
    fake = await startFakeSquare();
    const env = {
      RATE_LIMIT: 'off',
      CLOCK: 'manual',
      PAYMENTS: 'square',
      SQUARE_ACCESS_TOKEN: FAKE_SQUARE_TOKEN,
      SQUARE_LOCATION_ID: FAKE_SQUARE_LOCATION,
      SQUARE_BASE_URL: fake.url,
    };
    const first = await startServer({ env });
    servers.push(first);
    const dataDir = join(first.dataDir, 'data');
    const admin = new Client(first);
    const hour = 3_600_000;
    const start = Math.ceil(Date.now() / hour) * hour + hour;
    await admin.ok('POST', '/api/test/clock', { now: start - 10 * 60_000 });

    // Before the backup: a game that fills and goes live, another still waiting, a box with its commitment.
    const [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((name) => player(first, `restore_${name}`)));
    const influencers = ((await alice!.ok('GET', '/api/influencers')) as { id: string }[]).map((i) => i.id);
    const products = (await alice!.ok('GET', '/api/products')) as { id: number; playEnabled: boolean; price: number; quantity: number; brand: string }[];
    // A $2 product's game fills with two entries; any other's waits with one.
    const liveProduct = products.find((p) => p.playEnabled && p.price <= 2 && p.quantity > 1);
    const waitingProduct = products.find((p) => p.playEnabled && p.price > 2 && p.quantity > 1);
    const live = await enter(alice!, liveProduct!.id, influencers.slice(0, 5));
    expect(await enter(bob!, liveProduct!.id, influencers.slice(5, 10))).toBe(live);
    const waiting = await enter(carol!, waitingProduct!.id, influencers.slice(0, 5));
    await admin.ok('POST', '/api/test/clock', { now: start + 5 * 60_000 });
    expect(((await alice!.ok('GET', `/api/games/${live}`)) as { status: string }).status).toBe('active');
    const hashBefore = await boxHash(dave!);
    const beforeBox = await buyBox(dave!);

    const backups = folder('csa-recommit-backup-');
    const file = join(backups, 'store.db');
    const made = await cli(['backup', file], dataDir);
    expect(made.code).toBe(0);
    const committedAtBackup = await boxHash(dave!);

    // After the backup, in the store about to be lost: the committed box seed draws and is revealed.
    const afterBox = await buyBox(dave!);
    const revealed = await revealedOnOrderPage(dave!, afterBox);
    expect(revealed.seedHash).toBe(committedAtBackup);
    expect(hashBefore).not.toBe(committedAtBackup);
    const original = storeFile(dataDir);
    const liveSeed = gameSeed(original, live);
    const waitingSeed = gameSeed(original, waiting);
    const liveHolds = (
      original
        .query("select idempotency_key as key from payments where kind = 'play_authorization' and play_id in (select id from plays where game_id = ?)")
        .all(live) as {
        key: string;
      }[]
    ).map((row) => row.key);
    const highestOrderBefore = (original.query('select max(id) as id from orders').get() as { id: number }).id;
    original.close();
    expect(highestOrderBefore).toBe(afterBox);
    expect(liveHolds).toHaveLength(2);
    await first.stop();

    // A leaked backup reveals no future draw: none of the seeds unrevealed at its time is in its bytes.
    const bytes = readFileSync(file).toString('latin1');
    for (const seed of [revealed.seed, liveSeed, waitingSeed]) expect(bytes.includes(seed)).toBe(false);

    const restoredRoot = folder('csa-recommit-restored-');
    const restored = await cli(['restore', file], join(restoredRoot, 'data'));
    expect(restored.code).toBe(0);
    expect(restored.out).toContain('order numbers continue from');
    const second = await startServer({ dataDir: restoredRoot, env });
    servers.push(second);
    expect(await second.outputContaining('restore_recommitted')).toContain('restore_recommitted');
    const back = new Client(second);
    await back.ok('POST', '/api/login', { username: 'restore_dave', password: 'restore-pass-1' });

    // The box: a new commitment before its next sale; the seed revealed after the backup never draws again.
    const hashAfter = await boxHash(back);
    expect(hashAfter).not.toBe(committedAtBackup);
    const next = await buyBox(back);
    expect(next).toBeGreaterThan(highestOrderBefore);
    const nextDraw = await revealedOnOrderPage(back, next);
    expect(nextDraw.seedHash).toBe(hashAfter);
    expect(nextDraw.seed).not.toBe(revealed.seed);
    expect(beforeBox).toBeLessThan(next);

    // The waiting game: a new seed and a new published hash.
    const restoredDb = storeFile(join(restoredRoot, 'data'));
    const waitingView = (await back.ok('GET', `/api/games/${waiting}`)) as { status: string; seedHash: string; seed: string | null };
    expect(waitingView.status).toBe('waiting');
    expect(gameSeed(restoredDb, waiting)).not.toBe(waitingSeed);
    expect(new Bun.CryptoHasher('sha256').update(Buffer.from(gameSeed(restoredDb, waiting), 'hex')).digest('hex')).toBe(waitingView.seedHash);
    restoredDb.close();

    // The game live at the backup: voided, its holds released at Square, its players told.
    const liveView = (await back.ok('GET', `/api/games/${live}`)) as { status: string };
    expect(liveView.status).toBe('canceled');
    const holds = fake.payments().filter((payment) => liveHolds.includes(String(payment.reference_id)));
    expect(holds.map((payment) => payment.status)).toEqual(['CANCELED', 'CANCELED']);
    const told = new Client(second);
    await told.ok('POST', '/api/login', { username: 'restore_alice', password: 'restore-pass-1' });
    const notes = (await told.ok('GET', '/api/notifications')) as { notifications?: { message: string }[] } | { message: string }[];
    const messages = (Array.isArray(notes) ? notes : (notes.notifications ?? [])).map((note) => note.message);
    expect(messages.some((message) => message.includes('restored from a backup taken while it was being played'))).toBe(true);
  });
});
