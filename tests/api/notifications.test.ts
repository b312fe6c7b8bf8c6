import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { notifications, userProfiles } from '../../src/db/schema.ts';
import { notify } from '../../src/domain/accounts/notifications.ts';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import { shopper } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;

async function signedIn() {
  const ctx = await testApp();
  const { client, id } = await shopper(ctx);
  return { ...ctx, shopper: client, userId: id };
}

/** Writes `count` notifications a minute apart, numbered from 1 (oldest) up; returns their ids. */
function writeMany(ctx: Ctx, userId: number, count: number, label = 'Note'): number[] {
  for (let i = 1; i <= count; i++) {
    ctx.clock.advance(60_000);
    notify(ctx.db, ctx.clock, userId, {
      type: i % 2 ? 'game_started' : 'payment_success',
      title: `${label} ${i}`,
      message: `Message ${i}`,
      actionUrl: '/scoreboard?tab=my-games',
      actionText: 'View Game',
    });
  }
  return ctx.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .all()
    .map((row) => row.id);
}

function rows(ctx: Ctx, userId: number) {
  return ctx.db.select().from(notifications).where(eq(notifications.userId, userId)).all();
}

interface NotificationsBody {
  notifications: {
    id: number;
    type: string;
    title: string;
    message: string;
    actionUrl: string | null;
    actionText: string | null;
    productId: number | null;
    gameId: number | null;
    timestamp: number;
    read: boolean;
  }[];
  unread: number;
}

async function list(client: TestClient): Promise<NotificationsBody> {
  const response = await client.get('/api/notifications');
  expect(response.status).toBe(200);
  return response.json();
}

// ---------------------------------------------------------------- GET

describe('GET /api/notifications', () => {
  test('signed out: 401', async () => {
    const { client } = await testApp();
    const response = await client().get('/api/notifications');
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe('Please log in to continue.');
  });

  test('none yet: an empty list and nothing unread', async () => {
    const { shopper: client } = await signedIn();
    expect(await list(client)).toEqual({ notifications: [], unread: 0 });
  });

  test('shows a notification with the fields of spec section 3', async () => {
    const ctx = await signedIn();
    notify(ctx.db, ctx.clock, ctx.userId, {
      type: 'game_won',
      title: 'You won!',
      message: 'Claim your prize.',
      actionUrl: '/cart',
      actionText: 'Claim Prize',
      productId: 7,
      gameId: 3,
    });
    const body = await list(ctx.shopper);
    expect(body.unread).toBe(1);
    expect(body.notifications).toEqual([
      {
        id: expect.any(Number),
        type: 'game_won',
        title: 'You won!',
        message: 'Claim your prize.',
        actionUrl: '/cart',
        actionText: 'Claim Prize',
        productId: 7,
        gameId: 3,
        timestamp: ctx.clock.now(),
        read: false,
      },
    ]);
  });

  test('with 60 stored: only the latest 50, newest first, with the unread count', async () => {
    const ctx = await signedIn();
    writeMany(ctx, ctx.userId, 60);
    const body = await list(ctx.shopper);
    expect(body.notifications).toHaveLength(50);
    expect(body.notifications.map((n) => n.title)).toEqual(Array.from({ length: 50 }, (_, i) => `Note ${60 - i}`));
    const stamps = body.notifications.map((n) => n.timestamp);
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
    expect(body.notifications.every((n) => !n.read)).toBe(true);
    // The count covers every unread notification the user has, not just the 50 listed.
    expect(body.unread).toBe(60);
  });

  test('notifications written in the same millisecond still come newest first', async () => {
    const ctx = await signedIn();
    for (const title of ['first', 'second', 'third']) {
      notify(ctx.db, ctx.clock, ctx.userId, { type: 'game_started', title, message: title });
    }
    expect((await list(ctx.shopper)).notifications.map((n) => n.title)).toEqual(['third', 'second', 'first']);
  });

  test('you only see your own', async () => {
    const ctx = await signedIn();
    const { client: other, id: otherId } = await shopper(ctx, 'shopper2');
    writeMany(ctx, ctx.userId, 2, 'Mine');
    writeMany(ctx, otherId, 3, 'Theirs');
    const mine = await list(ctx.shopper);
    expect(mine.notifications.map((n) => n.title)).toEqual(['Mine 2', 'Mine 1']);
    expect(mine.unread).toBe(2);
    const theirs = await list(other);
    expect(theirs.notifications.map((n) => n.title)).toEqual(['Theirs 3', 'Theirs 2', 'Theirs 1']);
    expect(theirs.unread).toBe(3);
  });
});

// ---------------------------------------------------------------- marking read

describe('POST /api/notifications/{id}/read', () => {
  test('marks that one read and leaves the others', async () => {
    const ctx = await signedIn();
    const [first, second] = writeMany(ctx, ctx.userId, 3);
    const response = await ctx.shopper.post(`/api/notifications/${second}/read`);
    expect(response.status).toBe(200);
    const byId = new Map(rows(ctx, ctx.userId).map((n) => [n.id, n.read]));
    expect(byId.get(second!)).toBe(true);
    expect(byId.get(first!)).toBe(false);
    const body = await list(ctx.shopper);
    expect(body.unread).toBe(2);
    expect(body.notifications.find((n) => n.id === second)!.read).toBe(true);

    // Marking it again is harmless.
    expect((await ctx.shopper.post(`/api/notifications/${second}/read`)).status).toBe(200);
    expect((await list(ctx.shopper)).unread).toBe(2);
  });

  test('another user’s notification: 404 and it stays unread', async () => {
    const ctx = await signedIn();
    const { id: otherId } = await shopper(ctx, 'shopper2');
    const [theirs] = writeMany(ctx, otherId, 1);
    const response = await ctx.shopper.post(`/api/notifications/${theirs}/read`);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe('Notification not found');
    expect(rows(ctx, otherId)[0]!.read).toBe(false);
  });

  test('an unknown or malformed id: 404', async () => {
    const ctx = await signedIn();
    expect((await ctx.shopper.post('/api/notifications/987654/read')).status).toBe(404);
    expect((await ctx.shopper.post('/api/notifications/abc/read')).status).toBe(404);
  });

  test('signed out: 401 and nothing changes', async () => {
    const ctx = await signedIn();
    const [id] = writeMany(ctx, ctx.userId, 1);
    expect((await ctx.client().post(`/api/notifications/${id}/read`)).status).toBe(401);
    expect(rows(ctx, ctx.userId)[0]!.read).toBe(false);
  });
});

describe('POST /api/notifications/read-all', () => {
  test('marks all of yours read, including those beyond the latest 50, and none of anyone else’s', async () => {
    const ctx = await signedIn();
    const { client: other, id: otherId } = await shopper(ctx, 'shopper2');
    writeMany(ctx, ctx.userId, 55);
    writeMany(ctx, otherId, 4);
    const response = await ctx.shopper.post('/api/notifications/read-all');
    expect(response.status).toBe(200);
    expect((await response.json()).updated).toBe(55);
    expect(rows(ctx, ctx.userId).every((n) => n.read)).toBe(true);
    const mine = await list(ctx.shopper);
    expect(mine.unread).toBe(0);
    expect(mine.notifications.every((n) => n.read)).toBe(true);
    expect(rows(ctx, otherId).some((n) => n.read)).toBe(false);
    expect((await list(other)).unread).toBe(4);
  });

  test('signed out: 401', async () => {
    const { client } = await testApp();
    expect((await client().post('/api/notifications/read-all')).status).toBe(401);
  });
});

// ---------------------------------------------------------------- the cart page gate

// The /cart page is being built alongside these tests: when it is not there yet (404), the
// test below is listed as a todo instead of failing.
const cartPageExists = await (async () => {
  const ctx = await testApp();
  return (await ctx.client().get('/cart')).status !== 404;
})();
const cartPageTest = cartPageExists ? test : test.todo;

describe('GET /cart with an incomplete profile', () => {
  cartPageTest('opens the cart anyway (issue 27: the checkout asks for what the payment needs) and adds no notification', async () => {
    const ctx = await signedIn();
    ctx.db.delete(userProfiles).where(eq(userProfiles.userId, ctx.userId)).run();
    const page = await ctx.shopper.get('/cart');
    expect(page.status).toBe(200);
    expect(rows(ctx, ctx.userId)).toHaveLength(0);
  });

  cartPageTest('a complete profile opens the cart and adds no notification', async () => {
    const ctx = await signedIn();
    const made = testTokenForCard('4111111111111111', 12, 2030, '123');
    if ('error' in made) throw new Error(made.error);
    const saved = await ctx.shopper.request('PATCH', '/api/user/profile', {
      json: {
        name: 'Lena Ocean',
        email: 'lena@example.com',
        phone: '949-555-0123',
        address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
        paymentMethod: { type: 'card', sourceId: made.token },
      },
    });
    expect(saved.status).toBe(200);
    const response = await ctx.shopper.get('/cart');
    expect(response.status).toBe(200);
    expect(rows(ctx, ctx.userId)).toHaveLength(0);
  });

  cartPageTest('signed out, the cart opens without redirecting to /profile', async () => {
    const ctx = await testApp();
    const response = await ctx.client().get('/cart');
    expect(response.headers.get('location') ?? '').not.toBe('/profile');
    expect(ctx.db.select().from(notifications).all()).toHaveLength(0);
  });
});
