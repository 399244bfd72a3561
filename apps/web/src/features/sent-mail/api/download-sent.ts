import type { Envelope } from '@youju/contract';
import { env } from '../../../config/env';
import { readToken } from '../../../stores/session-store';

/**
 * GET /api/user/sentRaw/{id}: the signed message exactly as sent, saved as an .eml file. A file is
 * not an envelope, so this bypasses the JSON client; a refusal still arrives as an envelope.
 */
export async function downloadSentRaw(id: number): Promise<void> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(`${env.apiBaseUrl}/user/sentRaw/${id}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(env.apiTimeoutMs),
    });
  } catch {
    throw new Error('网络连接失败，请检查网络后重试');
  }
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await response.json()) as Envelope;
    throw new Error(body.msg || '下载失败，请稍后再试');
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `sent-${id}.eml`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
