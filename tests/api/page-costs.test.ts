import { describe, expect, test } from 'bun:test';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { calibrationOf } from '../../src/domain/games/scoring.ts';
import { drawSeed } from '../../src/domain/games/simulation.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { all, attributes, links } from '../helpers/html.ts';

/*
 * No page costs more as the shop grows (issue 26, row 4): the scoreboard and a product's game pages read a fixed number of
 * SQL statements however many games are open, and its long lists come a page of 24 at a time,
 * with Previous/Next links. Games are written straight into the database, as many as a test needs.
 */

const HOUR = 3_600_000;
/** Ten past six (UTC): games opened at six are live. */
const NOW = Date.UTC(2026, 10, 21, 18, 10);

async function store() {
  const ctx = await testApp();
  ctx.clock.set(NOW);
  seedIfEmpty(ctx.db, ctx.clock);
  return ctx;
}

/** `count` open games on new products: even ones live since six with 10 players, odd ones filling (their index mod 10 players). */
function openGames(ctx: TestApp, count: number, from = 0): void {
  const sqlite = ctx.db.$client;
  const influencers = (sqlite.query('select id from influencers').all() as { id: number }[]).map((i) => i.id);
  const calibration = JSON.stringify(calibrationOf(ctx.db, influencers));
  const hour = Math.floor(NOW / HOUR) * HOUR;
  for (let g = from; g < from + count; g++) {
    const product = Number(
      sqlite
        .query("insert into products (product_type, brand, model, quantity, price_cents, play_enabled, created_at) values ('book', ?, ?, 5, 2500, 1, ?)")
        .run(`Open Book ${g}`, `OPEN-${g}`, NOW).lastInsertRowid,
    );
    const live = g % 2 === 0;
    const { seed, seedHash } = drawSeed();
    const game = Number(
      sqlite
        .query(
          `insert into games (product_id, status, required_participants, start_time, end_time, created_at, metrics_source, seed, seed_hash, calibration)
           values (?, ?, 10, ?, ?, ?, 'simulated', ?, ?, ?)`,
        )
        .run(product, live ? 'active' : 'waiting', live ? hour : null, live ? hour + HOUR : null, hour - HOUR, seed, seedHash, live ? calibration : null)
        .lastInsertRowid,
    );
    for (let p = 0; p < (live ? 10 : g % 10); p++) {
      const user = Number(sqlite.query("insert into users (username, password_hash, created_at) values (?, 'x', ?)").run(`p${g}-${p}`, NOW).lastInsertRowid);
      sqlite
        .query("insert into plays (product_id, game_id, user_id, influencer_ids, status, entered_at, created_at) values (?, ?, ?, ?, 'entered', ?, ?)")
        .run(product, game, user, JSON.stringify(influencers.slice(p % 8, (p % 8) + 5).map(String)), hour - HOUR + p, hour - HOUR + p);
    }
  }
}

/** SQL statements the database is asked to prepare while `work` runs. */
async function statementsOf(ctx: TestApp, work: () => Promise<unknown>): Promise<number> {
  const client = ctx.db.$client;
  const { prepare, query } = client;
  let n = 0;
  client.prepare = ((...args: Parameters<typeof prepare>) => {
    n++;
    return prepare.apply(client, args);
  }) as typeof prepare;
  client.query = ((...args: Parameters<typeof query>) => {
    n++;
    return query.apply(client, args);
  }) as typeof query;
  try {
    await work();
  } finally {
    client.prepare = prepare;
    client.query = query;
  }
  return n;
}

async function page(ctx: TestApp, path: string) {
  ctx.pageCache.clear();
  const response = await ctx.client().get(path, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('the scoreboard at any size', () => {
  test('Active Games reads the same number of statements with 6 open games as with 120', async () => {
    const small = await store();
    openGames(small, 6);
    const large = await store();
    openGames(large, 120);
    // Warm: the first request of a process prepares what it keeps.
    await page(small, '/scoreboard');
    await page(large, '/scoreboard');
    const few = await statementsOf(small, () => page(small, '/scoreboard'));
    const many = await statementsOf(large, () => page(large, '/scoreboard'));
    expect(many).toBe(few);
    expect(many).toBeLessThan(20);
  });

  test('Active Games shows 24 a page: page 2 the next ones, with links back and on', async () => {
    const ctx = await store();
    openGames(ctx, 30);
    const first = await page(ctx, '/scoreboard');
    const second = await page(ctx, '/scoreboard?page=2');
    const shownFirst = attributes(first, 'section[data-live-region] li[data-game-id]', 'data-game-id');
    const shownSecond = attributes(second, 'section[data-live-region] li[data-game-id]', 'data-game-id');
    expect(shownFirst).toHaveLength(24);
    expect(shownSecond).toHaveLength(6);
    expect(shownFirst.filter((id) => shownSecond.includes(id))).toEqual([]);
    // Live games first: all 15 live ones are on page 1.
    expect(all(first, 'section[data-live-region] li[data-status="active"]')).toHaveLength(15);
    expect(links(first, 'nav[data-pager] a')).toEqual([{ href: '/scoreboard?page=2', text: 'Next page' }]);
    expect(links(second, 'nav[data-pager] a')).toEqual([{ href: '/scoreboard', text: 'Previous page' }]);
    // Past the last page: an empty list, a way back, no error.
    const past = await page(ctx, '/scoreboard?page=3');
    expect(all(past, 'section[data-live-region] li[data-game-id]')).toHaveLength(0);
    expect(links(past, 'nav[data-pager] a')).toEqual([{ href: '/scoreboard?page=2', text: 'Previous page' }]);
  });

  test('a page number that is not one shows page 1', async () => {
    const ctx = await store();
    openGames(ctx, 30);
    for (const odd of ['0', '-1', 'x', '1e3', '99999999999']) {
      const html = await page(ctx, `/scoreboard?page=${odd}`);
      expect(all(html, 'section[data-live-region] li[data-game-id]')).toHaveLength(24);
    }
  });

  test('a few games show no page links', async () => {
    const ctx = await store();
    openGames(ctx, 5);
    expect(all(await page(ctx, '/scoreboard'), 'nav[data-pager]')).toHaveLength(0);
  });
});

describe('My Games at any size', () => {
  test('24 entries a page, page 2 the older ones, with links back and on, in a fixed number of statements', async () => {
    const ctx = await store();
    openGames(ctx, 40);
    const client = ctx.client();
    const registered = await client.post('/api/register', { json: { username: 'keen-player', password: 'secret-pass' } });
    const id = (await registered.json()).id as number;
    // The keen player takes the first entry of 30 games, one a minute apart.
    const sqlite = ctx.db.$client;
    const entries = sqlite.query('select min(id) as id from plays group by game_id order by game_id limit 30').all() as { id: number }[];
    for (const [i, e] of entries.entries()) sqlite.query('update plays set user_id = ?, created_at = ? where id = ?').run(id, NOW - i * 60_000, e.id);
    const read = async (path: string) => {
      const response = await client.get(path, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const first = await read('/scoreboard?tab=my-games');
    const second = await read('/scoreboard?tab=my-games&page=2');
    const ids = (html: string) => attributes(html, 'li[data-play-id]', 'data-play-id').map(Number);
    expect(ids(first)).toEqual(entries.slice(0, 24).map((e) => e.id));
    expect(ids(second)).toEqual(entries.slice(24).map((e) => e.id));
    expect(links(first, 'nav[data-pager] a')).toEqual([{ href: '/scoreboard?tab=my-games&page=2', text: 'Next page' }]);
    expect(links(second, 'nav[data-pager] a')).toEqual([{ href: '/scoreboard?tab=my-games', text: 'Previous page' }]);
    // 24 entries cost what 6 do: their games' entries and records are read together.
    const full = await statementsOf(ctx, () => read('/scoreboard?tab=my-games'));
    const short = await statementsOf(ctx, () => read('/scoreboard?tab=my-games&page=2'));
    expect(full).toBe(short);
  });
});

/** A product whose `full` waiting games wait for their hour, and one more game filling. */
function productWithFullGames(ctx: TestApp, full: number): number {
  const sqlite = ctx.db.$client;
  const product = Number(
    sqlite
      .query("insert into products (product_type, brand, model, quantity, price_cents, play_enabled, created_at) values ('book', 'Busy', ?, 5, 2500, 1, ?)")
      .run(`BUSY-${full}`, NOW).lastInsertRowid,
  );
  for (let g = 0; g <= full; g++) {
    const { seed, seedHash } = drawSeed();
    const game = Number(
      sqlite
        .query(
          "insert into games (product_id, status, required_participants, created_at, metrics_source, seed, seed_hash) values (?, 'waiting', 3, ?, 'simulated', ?, ?)",
        )
        .run(product, NOW, seed, seedHash).lastInsertRowid,
    );
    for (let p = 0; p < (g < full ? 3 : 1); p++) {
      const user = Number(
        sqlite.query("insert into users (username, password_hash, created_at) values (?, 'x', ?)").run(`b${full}-${g}-${p}`, NOW).lastInsertRowid,
      );
      sqlite
        .query(
          'insert into plays (product_id, game_id, user_id, influencer_ids, status, entered_at, created_at) values (?, ?, ?, \'["1","2","3","4","5"]\', \'entered\', ?, ?)',
        )
        .run(product, game, user, NOW, NOW);
    }
  }
  return product;
}

describe('a product whose games wait for their hour', () => {
  test('its competition and play pages read the same number of statements with 2 full games waiting as with 25', async () => {
    const ctx = await store();
    const few = productWithFullGames(ctx, 2);
    const many = productWithFullGames(ctx, 25);
    const read = (path: string) => statementsOf(ctx, () => page(ctx, path));
    for (const route of ['/api/products/:id/competition', '/play/:id']) {
      await read(route.replace(':id', String(few)));
      const a = await read(route.replace(':id', String(few)));
      const b = await read(route.replace(':id', String(many)));
      expect(b).toBe(a);
    }
    // The next entry joins the game with room, after the full ones.
    const view = await (await ctx.client().get(`/api/products/${many}/competition`)).json();
    expect(view.participants).toBe(3);
    expect(view.nextGame).toMatchObject({ participants: 1, requiredParticipants: 3 });
  });
});

describe('the admin lists at any size', () => {
  test('a product tab shows 50 products a page, keeping the tab and the search in its links', async () => {
    const ctx = await store();
    openGames(ctx, 70);
    const admin = await adminWithPin(ctx);
    const read = async (path: string) => {
      const response = await admin.get(path, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const rows = (html: string) => all(html, 'section[aria-label="Books"] li').length;
    const books = (ctx.db.$client.query("select count(*) as n from products where product_type = 'book'").get() as { n: number }).n;
    const first = await read('/admin?tab=book');
    const second = await read('/admin?tab=book&page=2');
    expect(rows(first)).toBe(50);
    expect(rows(second)).toBe(books - 50);
    expect(links(first, 'nav[data-pager] a')).toEqual([{ href: '/admin?tab=book&page=2', text: 'Next page' }]);
    expect(links(second, 'nav[data-pager] a')).toEqual([{ href: '/admin?tab=book', text: 'Previous page' }]);
    const searched = await read('/admin?tab=book&q=Open');
    expect(rows(searched)).toBe(50);
    expect(links(searched, 'nav[data-pager] a')).toEqual([{ href: '/admin?tab=book&q=Open&page=2', text: 'Next page' }]);
  });

  test('the Games tab shows 50 open games of each state a page', async () => {
    const ctx = await store();
    openGames(ctx, 120);
    const admin = await adminWithPin(ctx);
    const read = async (path: string) => (await admin.get(path, { headers: { accept: 'text/html' } })).text();
    const first = await read('/admin?tab=games');
    const second = await read('/admin?tab=games&page=2');
    expect(all(first, 'section[data-status="active"] li[data-game-id]')).toHaveLength(50);
    expect(all(second, 'section[data-status="active"] li[data-game-id]')).toHaveLength(10);
    expect(all(second, 'section[data-status="waiting"] li[data-game-id]')).toHaveLength(10);
    expect(links(first, 'nav[data-pager] a')).toEqual([{ href: '/admin?tab=games&page=2', text: 'Next page' }]);
  });
});
