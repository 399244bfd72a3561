import type { Envelope } from '@youju/contract';

/** Direct API calls for arranging and checking data around a browser test. */
export function apiAs(baseUrl: string, token?: string) {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Envelope<T>> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Envelope<T>;
  };
  return {
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body: unknown) => call<T>('POST', path, body),
  };
}

/** Unwraps an envelope that must have succeeded. */
export function ok<T>(envelope: Envelope<T>): T {
  if (envelope.error !== 0) throw new Error(`接口失败（${envelope.error}）：${envelope.msg}`);
  return envelope.data as T;
}

/** A name no other test uses (letters and digits, as system user names allow). */
export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}
