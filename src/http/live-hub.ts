import type { Db } from '../db/client.ts';
import { firstLiveEventId, lastLiveEventId, liveEventsAfter } from '../domain/operations/live-events.ts';

/*
 * The live stream's fan-out in one process: it reads new rows of live_events (whichever process
 * wrote them) every pollMs while anyone listens, renders each changed topic once, and hands the
 * result to every connection subscribed to it. A connection sends the state of its topics, never
 * a delta, so a reconnect only needs to know which of its topics changed since its last id.
 */

export interface LiveMessage {
  event: string;
  data: string;
}

/** The current state of a topic as one message; null when there is nothing to send (a deleted product). */
export type RenderTopic = (topic: string) => LiveMessage | null;

export interface LiveConnection {
  readonly topics: ReadonlySet<string>;
  deliver(id: number, messages: LiveMessage[]): void;
}

export class LiveHub {
  private readonly connections = new Set<LiveConnection>();
  private cursor = 0;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly db: Db,
    private readonly render: RenderTopic,
    private readonly pollMs = 250,
    private readonly onError?: (error: unknown) => void,
  ) {}

  get size(): number {
    return this.connections.size;
  }

  /**
   * Adds a connection and answers what it must send first: the state of each of its topics that
   * changed after `lastId` (all of them without one, or when lastId is older than what is kept),
   * and the id to send it under. Later changes arrive through deliver().
   */
  connect(connection: LiveConnection, lastId: number | null): { id: number; messages: LiveMessage[] } {
    if (this.connections.size === 0) this.cursor = lastLiveEventId(this.db);
    this.connections.add(connection);
    this.timer ??= setInterval(() => {
      try {
        this.tick();
      } catch (error) {
        // A busy or closing database: the rows stay, the next tick reads them.
        this.onError?.(error);
      }
    }, this.pollMs);
    const upTo = this.cursor;
    let topics = [...connection.topics];
    if (lastId !== null && lastId >= firstLiveEventId(this.db) - 1 && lastId <= upTo) {
      const changed = new Set(
        liveEventsAfter(this.db, lastId, 100_000)
          .filter((row) => row.id <= upTo)
          .map((row) => row.topic),
      );
      topics = topics.filter((topic) => changed.has(topic));
    }
    return { id: upTo, messages: topics.map((topic) => this.render(topic)).filter((message) => message !== null) };
  }

  disconnect(connection: LiveConnection): void {
    this.connections.delete(connection);
    if (this.connections.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Reads what changed since the last tick and sends each connection its topics' new state. */
  tick(): void {
    const rows = liveEventsAfter(this.db, this.cursor);
    if (rows.length === 0) return;
    this.cursor = rows.at(-1)!.id;
    const changed = new Set(rows.map((row) => row.topic));
    const rendered = new Map<string, LiveMessage | null>();
    const messageFor = (topic: string) => {
      if (!rendered.has(topic)) rendered.set(topic, this.render(topic));
      return rendered.get(topic)!;
    };
    for (const connection of this.connections) {
      const messages: LiveMessage[] = [];
      for (const topic of connection.topics) {
        if (!changed.has(topic)) continue;
        const message = messageFor(topic);
        if (message) messages.push(message);
      }
      if (messages.length > 0) connection.deliver(this.cursor, messages);
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.connections.clear();
  }
}

/**
 * Open streams by client address, so one client cannot hold thousands of them and slow every
 * page (issue 25, row 14: 2,000 streams from one client made an unrelated page take 8 s). Per
 * process: each process holds its own streams.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly perClient: number) {}

  /** Takes a slot for this address: a release function, or null when it holds them all. */
  take(address: string): (() => void) | null {
    const held = this.open.get(address) ?? 0;
    if (held >= this.perClient) return null;
    this.open.set(address, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(address) ?? 1) - 1;
      if (left > 0) this.open.set(address, left);
      else this.open.delete(address);
    };
  }

  /** Streams this address holds now. */
  held(address: string): number {
    return this.open.get(address) ?? 0;
  }
}
