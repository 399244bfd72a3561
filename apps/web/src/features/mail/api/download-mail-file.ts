import { type Envelope, ErrorCode, LOGIN_URL } from '@youju/contract';
import { env } from '../../../config/env';
import { ApiError, unwrap } from '../../../lib/api-error';
import { navigateTo } from '../../../lib/navigation';
import { clearToken, readToken } from '../../../stores/session-store';

/**
 * Attachments and raw sources are bytes, not the JSON envelope the shared HTTP client expects, so they
 * are fetched here with the same bearer token (never put in a URL) and the same login-expired rule.
 * A failure still answers with the envelope, whose Chinese `msg` becomes the error.
 */
export async function downloadMailFile(path: string): Promise<Blob> {
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

export function attachmentPath(attachmentId: string): string {
  return `/user/attachment/${encodeURIComponent(attachmentId)}`;
}

export function rawPath(messageId: number): string {
  return `/user/raw/${encodeURIComponent(messageId)}`;
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
