import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { auctionView } from '../../domain/auctions/views.ts';
import { findProduct } from '../../domain/catalog/catalog.ts';
import { productTeamsView } from '../../domain/promotions/teams-views.ts';
import { cartCount } from '../../domain/orders/cart.ts';
import { activeGames, competitionView } from '../../domain/games/views.ts';
import { latestNotifications, notificationView, unreadNotificationCount } from '../../domain/accounts/notifications.ts';
import type { AppDeps, AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { type LiveConnection, LiveHub, type LiveMessage, StreamSlots } from '../../http/live-hub.ts';
import { gameDepsOf } from '../../http/domain-deps.ts';

/*
 * GET /api/events: one server-sent event stream per page. ?product=ID (repeatable) subscribes to
 * those products' games and auctions, ?scoreboard=1 to the games list, and a signed-in visitor always gets
 * their own notifications and cart count. Each message is the topic's current state, under the id
 * of the last change it includes; a reconnect with Last-Event-ID gets only the topics that changed
 * since. A comment every LIVE_HEARTBEAT_MS (5 s) keeps a quiet stream inside every idle timeout on
 * its way: Bun's own (10 s by default, lifted for this request) and a proxy's (nginx: 60 s).
 */

const MAX_PRODUCTS = 50;
/** Streams one client address may hold open at once (a page holds one; 20 tabs is a lot). */
export const MAX_STREAMS_PER_CLIENT = 20;

/** One hub per app (its deps), created on the first stream. */
const hubs = new WeakMap<AppDeps, LiveHub>();
const slots = new WeakMap<AppDeps, StreamSlots>();

/** The open streams of one app by client address. */
function streamSlotsOf(deps: AppDeps): StreamSlots {
  let found = slots.get(deps);
  if (!found) {
    found = new StreamSlots(MAX_STREAMS_PER_CLIENT);
    slots.set(deps, found);
  }
  return found;
}

function renderer(deps: AppDeps) {
  const { db } = deps;
  const games = gameDepsOf(deps);
  return (topic: string): LiveMessage | null => {
    const [kind, id] = topic.split(':');
    if (kind === 'product') {
      const view = competitionView(games, Number(id));
      return view ? { event: 'competition', data: JSON.stringify({ productId: Number(id), competition: view }) } : null;
    }
    if (kind === 'auction') {
      // The public view: `leading` is per viewer, so the panel knows it from its own bids and reads.
      const view = auctionView(db, Number(id), null, deps.clock.now());
      return view ? { event: 'auction', data: JSON.stringify({ productId: Number(id), auction: view }) } : null;
    }
    if (kind === 'team') {
      // A product's open teams (half price with a friend): the list its page shows.
      const product = findProduct(db, Number(id));
      const view = product ? productTeamsView(db, product, deps.clock.now()) : null;
      return view ? { event: 'team', data: JSON.stringify({ productId: Number(id), teams: view }) } : null;
    }
    if (kind === 'scoreboard') return { event: 'scoreboard', data: JSON.stringify({ games: activeGames(games) }) };
    if (kind === 'user') {
      const userId = Number(id);
      return {
        event: 'user',
        data: JSON.stringify({
          notifications: latestNotifications(db, userId).map(notificationView),
          unread: unreadNotificationCount(db, userId),
          cartCount: cartCount(db, userId),
        }),
      };
    }
    return null;
  };
}

export function liveHubOf(deps: AppDeps): LiveHub {
  let hub = hubs.get(deps);
  if (!hub) {
    hub = new LiveHub(deps.db, renderer(deps));
    hubs.set(deps, hub);
  }
  return hub;
}

function lastEventIdOf(value: string | undefined): number | null {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

export const eventsApi = new Hono<AppEnv>().get('/events', (c) => {
  const wanted = c.req.queries('product') ?? [];
  if (wanted.length > MAX_PRODUCTS || wanted.some((value) => !/^[1-9]\d{0,8}$/.test(value))) {
    return c.json({ message: `product must be a product id, at most ${MAX_PRODUCTS} of them.` }, 400);
  }
  const topics = new Set<string>(wanted.flatMap((id) => [`product:${Number(id)}`, `auction:${Number(id)}`, `team:${Number(id)}`]));
  if (c.req.query('scoreboard') === '1') topics.add('scoreboard');
  // A visitor's own topic comes from the session, never from the query: nobody subscribes to another user.
  const user = c.get('user');
  if (user) topics.add(`user:${user.id}`);
  if (topics.size === 0) return c.json({ message: 'Subscribe to a product (?product=ID) or the scoreboard (?scoreboard=1), or sign in.' }, 400);
  const lastId = lastEventIdOf(c.req.header('last-event-id') ?? c.req.query('lastEventId'));

  const release = streamSlotsOf(c.env.deps).take(clientIp(c));
  if (!release) {
    c.header('Retry-After', '30');
    return c.json(
      { message: `Too many live updates are open from your address (at most ${MAX_STREAMS_PER_CLIENT}). Close some tabs of the store and reload.` },
      429,
    );
  }

  // Bun closes a connection idle for 10 s by default (issue 37: a stream dropped every ~12 s); the
  // server is in c.env.server (absent, or a stand-in, under app.request() in tests); the heartbeat covers the rest.
  c.env.server?.timeout?.(c.req.raw, 0);
  c.header('Cache-Control', 'no-store');
  c.header('X-Accel-Buffering', 'no');
  const hub = liveHubOf(c.env.deps);
  return streamSSE(c, async (stream) => {
    const send = (id: number, messages: LiveMessage[]) => {
      for (const message of messages) void stream.writeSSE({ id: String(id), event: message.event, data: message.data }).catch(() => {});
    };
    const connection: LiveConnection = { topics, deliver: send };
    let closed = false;
    // The slot is given back when the client goes away, and whatever else ends the stream.
    stream.onAbort(() => {
      closed = true;
      hub.disconnect(connection);
      release();
    });
    try {
      const first = hub.connect(connection, lastId);
      await stream.writeSSE({ id: String(first.id), event: 'ready', data: JSON.stringify({ topics: [...topics] }), retry: 3000 });
      send(first.id, first.messages);
      while (!closed) {
        await stream.sleep(c.env.deps.config.liveHeartbeatMs);
        if (!closed) await stream.write(': keep-alive\n\n').catch(() => {});
      }
    } finally {
      hub.disconnect(connection);
      release();
    }
  });
});
