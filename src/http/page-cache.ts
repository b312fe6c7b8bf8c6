import { GALLERY_SORTS, LISTED_WAYS, PRODUCT_TYPE_NAMES } from '../shared/schemas/catalog.ts';
import type { SharedPage, ViewerPieces } from './shared-page.ts';
import type { RenderedFragment } from '../components/render-context.ts';

/**
 * Rendered catalogue pages by URL: the page as it is for everyone (shared by visitors and
 * signed-in shoppers, whose header and tail are put in per request), and the visitors' JSON.
 * The cache belongs to the version of the storefront it was filled at (`storefrontVersion`,
 * bumped by triggers on every write a catalogue page shows, by any process); a lookup reads
 * the version after this process wrote, and at least every 250 ms otherwise, and drops
 * everything when it moved: this process's own changes show at once, another process's
 * within 250 ms.
 */
export interface CachedResponse {
  kind: 'response';
  body: string;
  /** Compressed once when stored, so a hit costs no compression. */
  gzip: Uint8Array;
  contentType: string;
}

type CachedEntry = CachedResponse | SharedPage;

/**
 * A visitor's cached answer as the app gave it (status, headers, body for one Accept-Encoding
 * variant), sent again before Hono routes anything (page-cache-visitors.ts) until `until`, the
 * next moment by the store's clock its page changes (a countdown's minute, an auction's end).
 */
export interface VisitorAnswer {
  status: number;
  /**
   * Kept as a Headers and a Blob: a Response made from them copies neither the bytes nor a list
   * of pairs into new headers one by one (about a fifth of a hit's cost before, bench/hit-costs.ts).
   */
  headers: Headers;
  body: Blob;
  /** `headers` with the security headers of its path, made on its first hit (sealed-answers.ts). */
  sealed?: Headers;
  until: number;
  /** A page answers a HEAD with the GET's headers, as its route does; the catalogue JSON's route answers a HEAD uncached, so it is left to it. */
  head: boolean;
}

/**
 * A signed-in shopper's cached page as the app gave it (their header and tail joined in), sent
 * again before the router (page-cache-signed-in.ts) while their session names the same user at
 * the same viewer version, until `until`.
 */
export interface SignedInAnswer {
  status: number;
  /** As a visitor's answer: a Headers and a Blob, which a Response takes without copying the bytes. */
  headers: Headers;
  body: Blob;
  /** `headers` with the security headers of its path, made on its first hit (sealed-answers.ts). */
  sealed?: Headers;
  until: number;
  userId: number;
  viewerVersion: number;
  /** The header shows it, and renaming moves no viewer version (viewer-parts.tsx keys on it too). */
  username: string;
}

/** A cached page's key besides its URL, and until when (store clock, ms) it holds: see page-cache-clock.ts. */
export interface PageKey {
  key: string;
  until: number;
}

/**
 * The finite views that are kept, by parameter and value. A key is built from these parsed
 * values only, so '/products?sort=newest%26type%3Dshoe' (one odd sort) can never be stored
 * under the key of '?sort=newest&type=shoe'.
 */
const CACHEABLE_VALUES: Record<string, readonly string[] | RegExp> = {
  type: PRODUCT_TYPE_NAMES,
  sort: GALLERY_SORTS,
  way: LISTED_WAYS,
  tab: ['competition', 'details', 'active', 'winners'],
  // The gallery by size (issue 38): the usual sizes as the store writes them (S-XXXL, shoe sizes),
  // so the keys stay finite; any other spelling ('m', 'One size') is rendered, not kept.
  size: /^(?:XXS|XS|S|M|L|XL|XXL|XXXL|\d{1,2}(?:\.5)?)$/,
  // A list's pages (the scoreboard's): at most 999 of them, so the keys stay finite.
  page: /^[1-9]\d{0,2}$/,
};

const allowed = (rule: readonly string[] | RegExp, value: string) => (rule instanceof RegExp ? rule.test(value) : rule.includes(value));

/** The canonical query of a cacheable view ('' for none), or null when the URL is not one. */
export function cacheableQuery(params: URLSearchParams): string | null {
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    if (!Object.hasOwn(CACHEABLE_VALUES, name) || seen.has(name) || !allowed(CACHEABLE_VALUES[name]!, value)) return null;
    seen.set(name, value);
  }
  return [...seen]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export interface PageCacheOptions {
  /** How often the storefront version is read when this process wrote nothing: another process's change shows within this time. */
  recheckMs?: number;
  maxEntries?: number;
  /** Headers and tails kept for signed-in viewers (a few kilobytes each). */
  maxViewerParts?: number;
  /** Signed-in shoppers' answers kept whole (one page for one session each). */
  maxSignedInAnswers?: number;
  /** Values computed once per storefront version (a product's games, the live auctions' end times). */
  maxRemembered?: number;
  now?: () => number;
}

/** A map that forgets the least recently used entry when full. */
class LruStore<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly max: number) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: T): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

export class PageCache {
  private readonly entries = new Map<string, CachedEntry>();
  private readonly remembered: LruStore<unknown>;
  private readonly visitorAnswers: LruStore<VisitorAnswer>;
  private readonly signedInAnswers: LruStore<SignedInAnswer>;
  /** Some signed-in answer was kept since the last drop: until then a shopper's request looks nothing up. */
  keepsSignedInAnswers = false;
  /**
   * Viewers' headers and tails by viewer, viewer version and page shape (viewer-parts.tsx).
   * They show nothing of the storefront, so a new storefront version keeps them; a user's
   * change moves their key. The oldest go first.
   */
  private readonly viewerPieces: LruStore<ViewerPieces>;
  /**
   * Rendered fragments by their own key (a product card keyed by its product's row), kept
   * across storefront versions: a game entry re-renders the pages, not the cards. The oldest
   * go first.
   */
  readonly fragments = new LruStore<RenderedFragment>(1000);
  private filledAt: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private wroteSinceCheck = true;
  private readonly recheckMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  hits = 0;
  misses = 0;

  constructor(
    /** The storefront's current version (one indexed read); the cache is dropped whenever it moves. */
    private readonly version: () => number,
    options: PageCacheOptions = {},
  ) {
    this.recheckMs = options.recheckMs ?? 250;
    this.maxEntries = options.maxEntries ?? 300;
    this.viewerPieces = new LruStore(options.maxViewerParts ?? 2000);
    this.remembered = new LruStore(options.maxRemembered ?? 2000);
    this.visitorAnswers = new LruStore(this.maxEntries);
    // A shopper's page is theirs alone (tens of kilobytes gzipped): a few pages each of the shoppers browsing now.
    this.signedInAnswers = new LruStore(options.maxSignedInAnswers ?? 500);
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * This process may have changed the storefront (a write request finished, a job ran): the next
   * lookup reads the version at once, so its own changes are never served stale.
   */
  noteLocalWrite(): void {
    this.wroteSinceCheck = true;
  }

  /** Drops everything kept for an older storefront version. */
  private checkVersion(): void {
    const now = this.now();
    // A read of the version costs a few microseconds of a 30-microsecond hit: done when this
    // process wrote, and otherwise at most every `recheckMs` for the writes of other processes.
    if (this.wroteSinceCheck || now - this.checkedAt >= this.recheckMs) {
      this.wroteSinceCheck = false;
      this.checkedAt = now;
      const version = this.version();
      if (version !== this.filledAt) {
        this.entries.clear();
        this.remembered.clear();
        this.visitorAnswers.clear();
        this.dropSignedInAnswers();
        this.filledAt = version;
      }
    }
  }

  /**
   * A value computed from the storefront (a product's game state, the live auctions' end times,
   * for a page's key), kept until the storefront version moves: the same rule as the pages
   * themselves, so a cache hit asks the database nothing. Keys name what they hold: one key,
   * one type.
   */
  remember<T>(key: string, compute: () => T): T {
    this.checkVersion();
    let value = this.remembered.get(key) as T | undefined;
    if (value === undefined) {
      value = compute();
      this.remembered.set(key, value);
    }
    return value;
  }

  /** A visitor's answer for this URL and encoding, while the storefront and the page's time key hold. */
  visitorAnswer(key: string, now: number): VisitorAnswer | undefined {
    // A URL never kept (a file, a probe, a form) costs no read of the version.
    if (!this.visitorAnswers.has(key)) return undefined;
    this.checkVersion();
    const hit = this.visitorAnswers.get(key);
    if (hit === undefined || now >= hit.until) return undefined;
    this.hits++;
    return hit;
  }

  keepVisitorAnswer(key: string, answer: VisitorAnswer): void {
    this.visitorAnswers.set(key, answer);
  }

  /** Whether a signed-in answer is kept under this key (no read of the version: the session is looked up first). */
  hasSignedInAnswer(key: string): boolean {
    return this.signedInAnswers.has(key);
  }

  /** A signed-in shopper's answer for this URL, encoding and session, while the storefront and the page's time key hold. */
  signedInAnswer(key: string, now: number): SignedInAnswer | undefined {
    this.checkVersion();
    const hit = this.signedInAnswers.get(key);
    if (hit === undefined || now >= hit.until) return undefined;
    this.hits++;
    return hit;
  }

  keepSignedInAnswer(key: string, answer: SignedInAnswer): void {
    this.signedInAnswers.set(key, answer);
    this.keepsSignedInAnswers = true;
  }

  private dropSignedInAnswers(): void {
    this.signedInAnswers.clear();
    this.keepsSignedInAnswers = false;
  }

  get(key: string) {
    this.checkVersion();
    const hit = this.entries.get(key);
    if (hit) this.hits++;
    else this.misses++;
    return hit;
  }

  set(key: string, body: string, contentType: string): void {
    this.keep(key, { kind: 'response', body, gzip: Bun.gzipSync(body), contentType });
  }

  setPage(key: string, page: SharedPage): void {
    // Not compressed now: a visitor's hit compresses the page whole once (render.tsx), and the
    // pieces are deflated when a signed-in shopper's first join needs them, then kept
    // (gzip-join.ts). A first fill after a storefront change compresses nothing it may not need.
    page.kept = true;
    for (const piece of page.pieces) piece.keep();
    this.keep(key, page);
  }

  private keep(key: string, entry: CachedEntry): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }

  viewerParts(key: string): ViewerPieces | undefined {
    return this.viewerPieces.get(key);
  }

  keepViewerParts(key: string, parts: ViewerPieces): void {
    void parts.header.deflated;
    void parts.tail.deflated;
    this.viewerPieces.set(key, parts);
  }

  clear(): void {
    this.entries.clear();
    this.remembered.clear();
    this.visitorAnswers.clear();
    this.dropSignedInAnswers();
    this.viewerPieces.clear();
    this.fragments.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
