import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_SOURCE_CLOSED, type EventSourceLike, openEventStream, reconnectDelay } from './event-stream';

class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  listeners = new Map<string, (event: MessageEvent) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
    this.readyState = EVENT_SOURCE_CLOSED;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  /** the browser retries by itself (network blip) */
  drop() {
    this.readyState = 0;
    this.onerror?.(new Event('error'));
  }
  /** the browser gives up (error status) */
  fail() {
    this.readyState = EVENT_SOURCE_CLOSED;
    this.onerror?.(new Event('error'));
  }
  emit(type: string, data: string) {
    this.listeners.get(type)?.(new MessageEvent(type, { data }));
  }
}

function harness(token: string | null = 'abc') {
  const sources: FakeSource[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const onEvent = vi.fn<(data: string) => void>();
  const onReconnect = vi.fn();
  const onGiveUp = vi.fn();
  setToken(token);
  const stop = openEventStream({
    path: '/user/events',
    events: { mail: onEvent },
    onReconnect,
    onGiveUp,
    createSource: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  return {
    sources,
    timers,
    onEvent,
    onReconnect,
    onGiveUp,
    stop,
    setToken,
  };
}

function setToken(value: string | null): void {
  if (value) localStorage.setItem('token', value);
  else localStorage.removeItem('token');
}

describe('openEventStream', () => {
  beforeEach(() => localStorage.clear());

  it('connects with the stored token in the URL and hands each event to its handler', () => {
    const h = harness();
    expect(h.sources).toHaveLength(1);
    expect(h.sources[0]?.url).toBe('/api/user/events?token=abc');
    h.sources[0]?.open();
    h.sources[0]?.emit('mail', JSON.stringify({ id: 5, subject: '你好' }));
    expect(h.onEvent).toHaveBeenCalledWith(JSON.stringify({ id: 5, subject: '你好' }));
    expect(h.onReconnect).not.toHaveBeenCalled();
  });

  it('refreshes after the browser reconnected by itself', () => {
    const h = harness();
    h.sources[0]?.open();
    h.sources[0]?.drop();
    expect(h.timers).toHaveLength(0);
    h.sources[0]?.open();
    expect(h.onReconnect).toHaveBeenCalledTimes(1);
  });

  it('opens a new stream with growing delays when the browser gives up, and resets after success', () => {
    const h = harness();
    h.sources[0]?.fail();
    expect(h.sources[0]?.closed).toBe(true);
    expect(h.timers.map((timer) => timer.ms)).toEqual([1000]);
    h.timers[0]?.run();
    expect(h.sources).toHaveLength(2);
    h.sources[1]?.fail();
    expect(h.timers.map((timer) => timer.ms)).toEqual([1000, 2000]);
    h.timers[1]?.run();
    h.sources[2]?.open();
    expect(h.onReconnect).toHaveBeenCalledTimes(1);
    h.sources[2]?.fail();
    expect(h.timers.at(-1)?.ms).toBe(1000);
  });

  it('asks the API once per outage why the stream was refused (e.g. an expired login)', () => {
    const h = harness();
    h.sources[0]?.open();
    h.sources[0]?.fail();
    expect(h.onGiveUp).toHaveBeenCalledTimes(1);
    h.timers[0]?.run();
    h.sources[1]?.fail();
    expect(h.onGiveUp).toHaveBeenCalledTimes(1);
  });

  it('stops for good when closed, and does not connect without a session', () => {
    const h = harness();
    h.sources[0]?.fail();
    h.stop();
    expect(h.timers[0]?.cleared).toBe(true);
    const none = harness(null);
    expect(none.sources).toHaveLength(0);
  });

  it('does not reconnect once the session is gone', () => {
    const h = harness();
    h.sources[0]?.fail();
    h.setToken(null);
    h.timers[0]?.run();
    expect(h.sources).toHaveLength(1);
  });

  it('caps the delay at 30 seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});
