import type { Envelope } from '@youju/contract';
import { t } from '../i18n';
import { unwrap } from './api-error';
import {
  apiHeaders,
  apiTimeoutMs,
  apiUrl,
  followLoginRedirect,
  isLoginExpired,
  transportFailure,
} from './rules';

// The JSON client. It resolves with the response envelope `{ error, msg, data }` whatever the HTTP
// status, because the server sends 4xx statuses with a JSON body; only the login-expired rule and
// transport failures reject here.

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).error === 'number';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An answer's text as an envelope, after the login-expired rule; uploads read their answer with it
 * too. A body that is no envelope (a proxy's error page) fails with a message of its own.
 */
export function envelopeFrom(status: number, text: string): Envelope {
  const body = parseJson(text);
  if (!isEnvelope(body))
    throw new Error(t('服务器返回了无法识别的内容（HTTP {status}），请稍后再试', { status }));
  if (isLoginExpired(body)) throw followLoginRedirect(body);
  return body;
}

/** What a JSON call needs: the method, the path under /api, query parameters or a body. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  params?: object;
  data?: unknown;
  signal?: AbortSignal;
  /** let the request outlive the page (a last save while it is being left; bodies up to 64 KiB) */
  keepalive?: boolean;
}

/** Sends a request and resolves with the envelope, whatever its error code. */
export async function requestEnvelope<T = unknown>(request: ApiRequest): Promise<Envelope<T>> {
  // One signal ends the call on the caller's cancel or after the timeout, whichever comes first; the
  // timeout covers reading the body too.
  const call = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    call.abort();
  }, apiTimeoutMs);
  const cancel = () => call.abort();
  if (request.signal?.aborted) cancel();
  else request.signal?.addEventListener('abort', cancel);
  const headers = apiHeaders();
  if (request.data !== undefined) headers['Content-Type'] = 'application/json';
  let status: number;
  let text: string;
  try {
    const response = await fetch(apiUrl(request.url, request.params), {
      method: request.method,
      headers,
      body: request.data === undefined ? undefined : JSON.stringify(request.data),
      signal: call.signal,
      ...(request.keepalive ? { keepalive: true } : {}),
    });
    status = response.status;
    text = await response.text();
  } catch {
    if (timedOut) throw new Error(transportFailure.timeout);
    throw new Error(request.signal?.aborted ? transportFailure.cancelled : transportFailure.network);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', cancel);
  }
  return envelopeFrom(status, text) as Envelope<T>;
}

/** GET under /api: the envelope's data, or an ApiError with the server's message. */
export async function apiGet<T = unknown>(url: string, params?: object): Promise<T> {
  return unwrap(await requestEnvelope<T>({ method: 'GET', url, params }));
}

/**
 * POST a JSON body under /api: the envelope's data, or an ApiError with the server's message.
 * `keepalive` lets the request outlive the page (a last write while the page is being left).
 */
export async function apiPost<T = unknown>(
  url: string,
  data?: unknown,
  options: { keepalive?: boolean } = {},
): Promise<T> {
  return unwrap(await requestEnvelope<T>({ method: 'POST', url, data, ...options }));
}

/** DELETE under /api: the envelope's data, or an ApiError with the server's message. */
export async function apiDelete<T = unknown>(url: string): Promise<T> {
  return unwrap(await requestEnvelope<T>({ method: 'DELETE', url }));
}
