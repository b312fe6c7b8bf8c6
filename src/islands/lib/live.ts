/*
 * The page's one live stream (GET /api/events, server-sent events). Islands subscribe to what
 * they show (a product's game, the scoreboard, the signed-in user's notifications and cart);
 * the topics asked for in the same moment share one EventSource, and a topic added later
 * reconnects with the last id seen, so nothing is missed. When the stream cannot connect (no
 * EventSource, the server refuses, or no answer within FALLBACK_AFTER_MS) subscribers are told
 * to fall back to polling, and told again when it is back.
 */

export type LiveEvent = 'competition' | 'auction' | 'scoreboard' | 'user' | 'team';
type Listener = (data: unknown) => void;
type FallbackListener = (polling: boolean) => void;

export const FALLBACK_AFTER_MS = 5_000;

const listeners = new Map<LiveEvent, Set<Listener>>();
const fallbackListeners = new Set<FallbackListener>();
const products = new Set<number>();
let scoreboard = false;
let source: EventSource | null = null;
let connectedQuery: string | null = null;
let lastId: string | null = null;
let scheduled = false;
let polling = false;
let watchdog: ReturnType<typeof setTimeout> | null = null;

function setPolling(on: boolean): void {
  if (polling === on) return;
  polling = on;
  for (const listener of fallbackListeners) listener(on);
}

function query(): string {
  const params = new URLSearchParams();
  for (const id of [...products].sort((a, b) => a - b)) params.append('product', String(id));
  if (scoreboard) params.set('scoreboard', '1');
  if (lastId) params.set('lastEventId', lastId);
  return params.toString();
}

function connect(): void {
  scheduled = false;
  if (typeof EventSource === 'undefined') {
    setPolling(true);
    return;
  }
  const wanted = query();
  const topics = wanted.replace(/&?lastEventId=[^&]*/, '');
  if (source && connectedQuery === topics) return;
  source?.close();
  connectedQuery = topics;
  const stream = new EventSource(`/api/events${wanted ? `?${wanted}` : ''}`);
  source = stream;
  if (watchdog) clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    if (stream.readyState !== EventSource.OPEN) setPolling(true);
  }, FALLBACK_AFTER_MS);
  stream.onopen = () => setPolling(false);
  stream.onerror = () => {
    // CONNECTING: the browser retries by itself (with Last-Event-ID). CLOSED: it gave up.
    if (stream.readyState === EventSource.CLOSED) setPolling(true);
  };
  const dispatch = (event: LiveEvent) => (message: MessageEvent<string>) => {
    if (message.lastEventId) lastId = message.lastEventId;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    for (const listener of listeners.get(event) ?? []) listener(data);
  };
  stream.addEventListener('ready', (message) => {
    if ((message as MessageEvent<string>).lastEventId) lastId = (message as MessageEvent<string>).lastEventId;
  });
  for (const event of ['competition', 'auction', 'scoreboard', 'user', 'team'] as const) stream.addEventListener(event, dispatch(event) as EventListener);
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // Islands hydrating together ask in the same moment: one connection for all of them.
  setTimeout(connect, 0);
}

/** Listens to one kind of message; the options name the topics it needs. Returns the unsubscribe. */
export function subscribeLive(event: LiveEvent, needs: { product?: number; scoreboard?: boolean }, listener: Listener): () => void {
  const set = listeners.get(event) ?? new Set<Listener>();
  listeners.set(event, set);
  set.add(listener);
  if (needs.product !== undefined) products.add(needs.product);
  if (needs.scoreboard) scoreboard = true;
  schedule();
  return () => {
    set.delete(listener);
  };
}

/** Called with true when subscribers should poll instead (and false when the stream is back). */
export function onLiveFallback(listener: FallbackListener): () => void {
  fallbackListeners.add(listener);
  if (polling) listener(true);
  return () => {
    fallbackListeners.delete(listener);
  };
}

/** For tests: forget every subscription and close the stream. */
export function resetLive(): void {
  source?.close();
  source = null;
  connectedQuery = null;
  lastId = null;
  products.clear();
  scoreboard = false;
  listeners.clear();
  fallbackListeners.clear();
  polling = false;
  if (watchdog) clearTimeout(watchdog);
}
