import { describe, expect, test } from 'bun:test';
import { loadConfig } from '../../src/config.ts';
import { closingConnection, requestTracker, SAME_SIGNAL_WINDOW_MS, signalJudge } from '../../src/shutdown.ts';

describe('shutdown', () => {
  test('the same signal within the window is the same stop; a later or different one exits now', () => {
    const judge = signalJudge();
    expect(judge('SIGTERM', 1000)).toEqual({ kind: 'stop' });
    // bun run passing on the group's SIGTERM, then npm exec doing the same.
    expect(judge('SIGTERM', 1001)).toEqual({ kind: 'same stop' });
    expect(judge('SIGTERM', 1000 + SAME_SIGNAL_WINDOW_MS - 1)).toEqual({ kind: 'same stop' });
    expect(judge('SIGTERM', 1000 + SAME_SIGNAL_WINDOW_MS)).toEqual({ kind: 'exit now', afterMs: SAME_SIGNAL_WINDOW_MS });
    const other = signalJudge();
    other('SIGTERM', 0);
    expect(other('SIGINT', 10)).toEqual({ kind: 'exit now', afterMs: 10 });
  });

  test('answers while draining close their connection, immutable headers included', async () => {
    const page = closingConnection(new Response('ok', { headers: { 'content-type': 'text/plain' } }));
    expect(page.headers.get('connection')).toBe('close');
    const redirect = closingConnection(Response.redirect('http://localhost/next', 303));
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('http://localhost/next');
    expect(redirect.headers.get('connection')).toBe('close');
    expect(await page.text()).toBe('ok');
  });

  test('the request count says when the last request in flight has finished', async () => {
    const requests = requestTracker();
    await requests.idle();
    requests.started();
    requests.started();
    let idle = false;
    const waiting = requests.idle().then(() => (idle = true));
    requests.finished();
    await Promise.resolve();
    expect(idle).toBe(false);
    requests.finished();
    await waiting;
    expect(requests.inFlight()).toBe(0);
  });

  test('SHUTDOWN_DRAIN_MS defaults to 5 s', () => {
    expect(loadConfig({}).shutdownDrainMs).toBe(5000);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
  });
});
