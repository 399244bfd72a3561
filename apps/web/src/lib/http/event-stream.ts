import { readToken } from '../../state/session';
import { apiUrl } from './rules';

/** The part of EventSource this module uses, so tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export const EVENT_SOURCE_CLOSED = 2;
export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

export interface EventStreamOptions {
  /** the stream's path under /api */
  path: string;
  /** a handler per event name, given the event's data text */
  events: Record<string, (data: string) => void>;
  /** the stream came back after a break: events may have been missed meanwhile */
  onReconnect: () => void;
  /**
   * the browser gave up on a stream that had been working (EventSource does not say why): a normal
   * API call then finds out, e.g. that the login expired, and applies the usual rule
   */
  onGiveUp?: () => void;
  createSource?: (url: string) => EventSourceLike;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** Delay before reconnect attempt number `attempt` (0-based): 1 s, 2 s, 4 s … at most 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(attempt, 10));
}

/**
 * EventSource cannot send headers, so an event stream takes the token as ?token= (the server accepts
 * it on its stream routes only). Without a stored login there is nothing to connect to.
 */
export function eventStreamUrl(path: string): string | null {
  const token = readToken();
  return token ? apiUrl(path, { token }) : null;
}

/**
 * A server-sent event stream that stays open. EventSource retries on its own after a dropped
 * connection, but gives up for good when the server answers with an error status (e.g. while it
 * restarts behind a proxy); then this opens a new one with growing delays. Every recovery after a
 * break calls `onReconnect`, because events sent during the gap were never received. Each attempt
 * reads the stored token again, and none is made once the login is gone. Returns the function that
 * stops it.
 */
export function openEventStream(options: EventStreamOptions): () => void {
  const createSource = options.createSource ?? ((url: string) => new EventSource(url));
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as number));
  let source: EventSourceLike | null = null;
  let timer: unknown = null;
  let attempt = 0;
  let interrupted = false;
  let stopped = false;

  const open = () => {
    timer = null;
    if (stopped) return;
    const url = eventStreamUrl(options.path);
    if (!url) return;
    const current = createSource(url);
    source = current;
    current.onopen = () => {
      attempt = 0;
      if (interrupted) {
        interrupted = false;
        options.onReconnect();
      }
    };
    current.onerror = () => {
      interrupted = true;
      if (current.readyState !== EVENT_SOURCE_CLOSED || stopped) return;
      // The browser gave up on this one: start over after a while.
      current.close();
      if (source === current) source = null;
      if (attempt === 0) options.onGiveUp?.();
      timer = setTimer(open, reconnectDelay(attempt));
      attempt += 1;
    };
    for (const [type, handle] of Object.entries(options.events)) {
      current.addEventListener(type, (event) => handle(String(event.data)));
    }
  };

  open();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    source?.close();
    source = null;
  };
}
