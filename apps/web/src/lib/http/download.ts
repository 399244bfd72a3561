import type { Envelope } from '@youju/contract';
import { t } from '../i18n';
import { saveBlob } from '../save-blob';
import { ApiError, unwrap } from './api-error';
import {
  apiHeaders,
  apiTimeoutMs,
  apiUrl,
  followLoginRedirect,
  isLoginExpired,
  type QueryParams,
  transportFailure,
} from './rules';

/**
 * Files are not envelopes, so they bypass the JSON client, with the same token (in a header, never
 * in a URL) and the same timeout; a refusal still arrives as an envelope and follows the same rules.
 */
async function fetchFile(url: string, networkMessage: string): Promise<Response> {
  try {
    return await fetch(url, { headers: apiHeaders(), signal: AbortSignal.timeout(apiTimeoutMs) });
  } catch {
    throw new Error(networkMessage);
  }
}

export interface DownloadOptions {
  /** the name to save under; by default the one the answer's Content-Disposition gives */
  filename?: string;
}

/**
 * Downloads a file an API call answers with (CSV and TXT exports, sent messages) and saves it;
 * resolves with the file name. A refusal is an envelope: the login-expired rule, or an ApiError
 * with the server's message.
 */
export async function downloadFile(
  path: string,
  params: QueryParams = {},
  options: DownloadOptions = {},
): Promise<string> {
  const response = await fetchFile(apiUrl(path, params), transportFailure.network);
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await response.json()) as Envelope;
    if (isLoginExpired(body)) throw followLoginRedirect(body);
    throw new ApiError(body.error, body.msg || t('下载失败，请稍后再试'));
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = options.filename ?? /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download';
  saveBlob(await response.blob(), filename);
  return filename;
}

/**
 * Fetches bytes behind the bearer token (attachments, raw sources) for the page to use. A failure
 * answers with an envelope: the login-expired rule, or its Chinese `msg` as the error.
 */
export async function downloadBlob(path: string): Promise<Blob> {
  const response = await fetchFile(apiUrl(path), t('下载失败，请检查网络后重试'));
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && !type.startsWith('application/json')) return response.blob();
  let envelope: Envelope | null = null;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    throw new Error(t('下载失败（HTTP {status}），请稍后再试', { status: response.status }));
  }
  if (isLoginExpired(envelope)) throw followLoginRedirect(envelope);
  unwrap(envelope);
  throw new ApiError(500, t('下载失败，请稍后再试'));
}
