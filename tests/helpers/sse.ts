/** One server-sent event as a client reads it. */
export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream response message by message (comments skipped), the way
 * EventSource parses it; `next` waits up to timeoutMs and answers null when nothing came.
 */
export function readEvents(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: SseMessage[] = [];
  let comments = 0;
  let ended = false;
  let pending: ReturnType<typeof reader.read> | null = null;

  const parse = () => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end < 0) return;
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: SseMessage = { id: null, event: 'message', data: '' };
      const data: string[] = [];
      let any = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments++;
        if (line.startsWith(':') || line === '') continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') message.id = value;
        else if (field === 'event') message.event = value;
        else if (field === 'data') data.push(value);
        else continue;
        any = true;
      }
      message.data = data.join('\n');
      if (any) queue.push(message);
    }
  };

  return {
    /** Whether the server ended the stream (a reader that closed it itself is not counted). */
    get ended() {
      return ended;
    },
    /** Comment lines read so far (heartbeats). */
    get comments() {
      return comments;
    },
    async next(timeoutMs = 3000): Promise<SseMessage | null> {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) return null;
        pending ??= reader.read();
        const result = await Promise.race([pending, Bun.sleep(left).then(() => null)]);
        if (result === null) return null;
        pending = null;
        if (result.done) {
          ended = true;
          return null;
        }
        buffer += decoder.decode(result.value, { stream: true }).replace(/\r\n/g, '\n');
        parse();
      }
      return queue.shift()!;
    },
    /** Every message until none comes for quietMs. */
    async drain(quietMs = 600): Promise<SseMessage[]> {
      const all: SseMessage[] = [];
      for (;;) {
        const message = await this.next(quietMs);
        if (!message) return all;
        all.push(message);
      }
    },
    async close(): Promise<void> {
      await reader.cancel().catch(() => {});
    },
  };
}
