import { DefaultMessage, type Envelope, ErrorCode, LOGIN_URL } from '@youju/contract';
import { env } from '../config/env';
import { clearToken, readToken } from '../stores/session-store';
import { ApiError, unwrap } from './api-error';
import { navigateTo } from './navigation';

/**
 * Downloads a file an API call answers with (CSV and TXT exports). Files are not envelopes, so they
 * bypass the JSON client; a refusal still arrives as an envelope and is handled by the same rules
 * (302 sends the visitor to log in, any other error becomes an ApiError with the server's message).
 */
export async function downloadFile(
  path: string,
  params: Record<string, string | number | boolean | undefined>,
) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(`${env.apiBaseUrl}${path}?${query.toString()}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(env.apiTimeoutMs),
    });
  } catch {
    throw new Error('网络连接失败，请检查网络后重试');
  }
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await response.json()) as Envelope;
    if (body.error === ErrorCode.notLoggedIn) {
      clearToken();
      navigateTo(body.url || LOGIN_URL);
      throw new Error(body.msg || DefaultMessage[ErrorCode.notLoggedIn]);
    }
    throw new ApiError(body.error, body.msg || '下载失败，请稍后再试');
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download';
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return filename;
}

/**
 * Fetches bytes behind the bearer token (attachments, raw sources): not the JSON envelope the shared
 * HTTP client expects, so fetched here with the same token (never put in a URL) and the same
 * login-expired rule. A failure still answers with the envelope, whose Chinese `msg` becomes the error.
 */
export async function downloadBlob(path: string): Promise<Blob> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(`${env.apiBaseUrl}${path}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(env.apiTimeoutMs),
    });
  } catch {
    throw new Error('下载失败，请检查网络后重试');
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && !type.startsWith('application/json')) return response.blob();
  let envelope: Envelope | null = null;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    throw new Error(`下载失败（HTTP ${response.status}），请稍后再试`);
  }
  if (envelope.error === ErrorCode.notLoggedIn) {
    clearToken();
    navigateTo(envelope.url || LOGIN_URL);
  }
  unwrap(envelope);
  throw new ApiError(500, '下载失败，请稍后再试');
}

/** API.md `attachment/{id}`: one attachment of a received message, for `downloadBlob`. */
export function attachmentPath(attachmentId: string): string {
  return `/user/attachment/${encodeURIComponent(attachmentId)}`;
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Minutes east of UTC of this browser, so the server writes and reads times as the operator sees them. */
export function utcOffsetMinutes(): number {
  return -new Date().getTimezoneOffset();
}

/**
 * Reads a file the person picked as text: UTF-8 when it is valid UTF-8 (the decoder drops a BOM),
 * otherwise GB18030, which is what Excel on Chinese Windows writes when saving as CSV.
 */
export async function readFileText(file: Blob): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}
