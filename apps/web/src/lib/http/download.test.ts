import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../navigation';
import { ApiError } from './api-error';
import { downloadBlob, downloadFile } from './download';

/** Answers every fetch with a JSON envelope, recording what was asked for. */
function answerJson(body: unknown, status = 200) {
  const seen: { url: string; headers: Record<string, string> }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers as Record<string, string> });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return seen;
}

describe('file downloads', () => {
  const navigate = vi.fn<(url: string) => void>();

  beforeEach(() => {
    localStorage.clear();
    navigate.mockReset();
    registerNavigator(navigate);
  });
  afterEach(() => {
    registerNavigator(null);
    vi.unstubAllGlobals();
  });

  it('ask under /api with the bearer token in a header and the parameters that are set', async () => {
    localStorage.setItem('token', 'abc123');
    const seen = answerJson({ error: 403, msg: '没有权限' }, 403);
    await expect(
      downloadFile('/user/exportCard', { batchId: 'b1', format: 'csv', note: undefined }),
    ).rejects.toThrow(new ApiError(403, '没有权限'));
    expect(seen[0]).toEqual({
      url: '/api/user/exportCard?batchId=b1&format=csv',
      headers: { Authorization: 'Bearer abc123', 'Accept-Language': 'zh-CN' },
    });
    await expect(downloadFile('/user/sentRaw/7')).rejects.toThrow('没有权限');
    expect(seen[1]?.url).toBe('/api/user/sentRaw/7');
  });

  it('follow the login-expired rule on error 302, for saved files and for bytes alike', async () => {
    for (const download of [() => downloadFile('/user/sentRaw/7'), () => downloadBlob('/user/raw/7')]) {
      localStorage.setItem('token', 'expired');
      answerJson({ error: 302, url: '/auth', msg: '登录已失效' }, 401);
      await expect(download()).rejects.toThrow('登录已失效');
      expect(navigate).toHaveBeenLastCalledWith('/auth');
      expect(localStorage.getItem('token')).toBeNull();
    }
  });

  it('turn a failed byte download into the server message, or a Chinese one', async () => {
    answerJson({ error: 404, msg: '附件不存在' }, 404);
    await expect(downloadBlob('/user/attachment/x')).rejects.toThrow('附件不存在');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(downloadBlob('/user/attachment/x')).rejects.toThrow('下载失败，请检查网络后重试');
    await expect(downloadFile('/user/exportCard')).rejects.toThrow('网络连接失败，请检查网络后重试');
  });
});
