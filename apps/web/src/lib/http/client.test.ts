import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../navigation';
import { requestEnvelope } from './client';

interface SeenRequest {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | null | undefined;
}

/** Answers every fetch with `body` (JSON unless a string) and `status`, recording the requests. */
function answer(body: unknown, status = 200) {
  const seen: SeenRequest[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({
      url,
      method: init.method,
      headers: init.headers as Record<string, string>,
      body: init.body,
      signal: init.signal,
    });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  });
  return seen;
}

function fail(error: Error) {
  vi.stubGlobal('fetch', async () => {
    throw error;
  });
}

describe('api client', () => {
  const navigate = vi.fn<(url: string) => void>();

  beforeEach(() => {
    localStorage.clear();
    navigate.mockReset();
    registerNavigator(navigate);
  });
  afterEach(() => {
    registerNavigator(null);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('sends requests under /api, with the parameters that are set and a JSON body', async () => {
    const seen = answer({ error: 0, msg: 'ok', data: 1 });
    await requestEnvelope({ method: 'GET', url: '/user/getInbox', params: { page: 2, search: undefined } });
    expect(seen[0]).toMatchObject({ url: '/api/user/getInbox?page=2', method: 'GET', body: undefined });
    await requestEnvelope({ method: 'POST', url: '/user/setReadEmail', data: { ids: [1] } });
    expect(seen[1]).toMatchObject({
      url: '/api/user/setReadEmail',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"ids":[1]}',
    });
  });

  it('gives up after 60 s', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const call = requestEnvelope({ method: 'GET', url: '/getVar' });
    const failed = expect(call).rejects.toThrow('请求超时，请检查网络后重试');
    await vi.advanceTimersByTimeAsync(59_999);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
  });

  it('sends the stored token as a bearer header, and none without a token; always the interface language', async () => {
    const seen = answer({ error: 0, msg: 'ok' });
    await requestEnvelope({ method: 'GET', url: '/user/getInbox' });
    expect(seen[0]?.headers).toEqual({ 'Accept-Language': 'zh-CN' });
    localStorage.setItem('token', 'abc123');
    await requestEnvelope({ method: 'GET', url: '/user/getInbox' });
    expect(seen[1]?.headers).toEqual({ Authorization: 'Bearer abc123', 'Accept-Language': 'zh-CN' });
  });

  it('on error 302 clears the token, navigates to the url and rejects with the body msg', async () => {
    localStorage.setItem('token', 'expired');
    answer({ error: 302, url: '/auth', msg: '登录已失效' }, 401);
    await expect(requestEnvelope({ method: 'GET', url: '/user/getInbox' })).rejects.toThrow('登录已失效');
    expect(navigate).toHaveBeenCalledWith('/auth');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('on error 302 without msg rejects with the default message', async () => {
    localStorage.setItem('token', 'expired');
    answer({ error: 302, url: '/somewhere' }, 401);
    await expect(requestEnvelope({ method: 'GET', url: '/user/getInbox' })).rejects.toThrow(
      '登录状态已过期，请先登录',
    );
    expect(navigate).toHaveBeenCalledWith('/somewhere');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('passes other errors through unchanged, whatever the HTTP status', async () => {
    localStorage.setItem('token', 'valid');
    const body = { error: 409, msg: '用户名已存在', data: { field: 'username' } };
    answer(body, 409);
    await expect(requestEnvelope({ method: 'POST', url: '/admin/createSysAccount' })).resolves.toEqual(body);
    answer({ error: 403, msg: '没有权限' }, 403);
    await expect(requestEnvelope({ method: 'GET', url: '/admin/getSysAccount' })).resolves.toEqual({
      error: 403,
      msg: '没有权限',
    });
    expect(navigate).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('valid');
  });

  it('rejects a body that is not an envelope with a Chinese message', async () => {
    answer('<html>网关错误</html>', 502);
    await expect(requestEnvelope({ method: 'GET', url: '/getVar' })).rejects.toThrow(
      '服务器返回了无法识别的内容（HTTP 502）',
    );
  });

  it('rejects network failures and cancelled calls with Chinese messages', async () => {
    fail(new TypeError('Failed to fetch'));
    await expect(requestEnvelope({ method: 'GET', url: '/getVar' })).rejects.toThrow(
      '网络连接失败，请检查网络后重试',
    );
    const cancel = new AbortController();
    cancel.abort();
    fail(new DOMException('The operation was aborted.', 'AbortError'));
    await expect(requestEnvelope({ method: 'GET', url: '/getVar', signal: cancel.signal })).rejects.toThrow(
      '请求已取消',
    );
  });
});
