import { type AxiosAdapter, AxiosError, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../navigation';
import { apiClient, requestEnvelope } from './client';

/** Answers every request with `body` and `status`, recording the request config. */
function answer(body: unknown, status = 200) {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    return { data: body, status, statusText: String(status), headers: {}, config };
  };
  apiClient.defaults.adapter = adapter;
  return seen;
}

function fail(error: Error) {
  apiClient.defaults.adapter = async () => {
    throw error;
  };
}

describe('api client', () => {
  const navigate = vi.fn<(url: string) => void>();

  beforeEach(() => {
    localStorage.clear();
    navigate.mockReset();
    registerNavigator(navigate);
  });
  afterEach(() => registerNavigator(null));

  it('sends requests under /api with a 60 s timeout', async () => {
    const seen = answer({ error: 0, msg: 'ok', data: 1 });
    await requestEnvelope({ method: 'GET', url: '/getVar' });
    expect(seen[0]?.baseURL).toBe('/api');
    expect(seen[0]?.timeout).toBe(60000);
    expect(seen[0]?.url).toBe('/getVar');
  });

  it('sends the stored token as a bearer header, and none without a token', async () => {
    const seen = answer({ error: 0, msg: 'ok' });
    await requestEnvelope({ method: 'GET', url: '/user/getInbox' });
    expect(seen[0]?.headers.Authorization).toBeUndefined();
    localStorage.setItem('token', 'abc123');
    await requestEnvelope({ method: 'GET', url: '/user/getInbox' });
    expect(seen[1]?.headers.Authorization).toBe('Bearer abc123');
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

  it('rejects network failures and timeouts with Chinese messages', async () => {
    fail(new AxiosError('timeout of 60000ms exceeded', 'ECONNABORTED'));
    await expect(requestEnvelope({ method: 'GET', url: '/getVar' })).rejects.toThrow(
      '请求超时，请检查网络后重试',
    );
    fail(new AxiosError('Network Error', 'ERR_NETWORK'));
    await expect(requestEnvelope({ method: 'GET', url: '/getVar' })).rejects.toThrow(
      '网络连接失败，请检查网络后重试',
    );
  });
});
