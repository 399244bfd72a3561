import { useQueryClient } from '@tanstack/react-query';
import type { MailItem } from '@youju/contract';
import { useEffect, useRef } from 'react';
import { env } from '../../../config/env';
import { readToken } from '../../../stores/session-store';
import { mailKeys } from './get-inbox';

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

export interface MailEventOptions {
  /** the stream's URL, or null when there is no session (then nothing connects) */
  url: () => string | null;
  onMail: (item: MailItem) => void;
  /** the stream came back after a break: mail may have arrived meanwhile */
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
 * The live inbox stream (GET /api/user/events, event `mail`). EventSource retries on its own after a
 * dropped connection, but gives up for good when the server answers with an error status (e.g. while
 * it restarts behind a proxy); then this opens a new one with growing delays. Every recovery after a
 * break calls `onReconnect`, because messages that arrived during the gap were never announced.
 * Returns the function that stops it.
 */
export function connectMailEvents(options: MailEventOptions): () => void {
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
    const url = options.url();
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
    current.addEventListener('mail', (event) => {
      try {
        options.onMail(JSON.parse(String(event.data)) as MailItem);
      } catch {
        // A malformed event changes nothing; the next list refresh shows the truth.
        options.onReconnect();
      }
    });
  };

  open();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    source?.close();
    source = null;
  };
}

/** EventSource cannot send headers, so the stream takes the token as ?token= (this route only). */
export function mailEventsUrl(token: string | null): string | null {
  return token ? `${env.apiBaseUrl}/user/events?token=${encodeURIComponent(token)}` : null;
}

/**
 * Keeps the open inbox live: a new message refreshes the lists and unread counts (and is handed to
 * `onMail`, e.g. for a notice), without reloading the page.
 */
export function useMailEvents(onMail?: (item: MailItem) => void): void {
  const queryClient = useQueryClient();
  const onMailRef = useRef(onMail);
  onMailRef.current = onMail;
  useEffect(() => {
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: mailKeys.inboxes() });
      void queryClient.invalidateQueries({ queryKey: mailKeys.unread() });
      void queryClient.invalidateQueries({ queryKey: mailKeys.addresses() });
    };
    return connectMailEvents({
      url: () => mailEventsUrl(readToken()),
      onMail: (item) => {
        refresh();
        onMailRef.current?.(item);
      },
      onReconnect: refresh,
      onGiveUp: refresh,
    });
  }, [queryClient]);
}
