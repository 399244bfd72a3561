import { describe, expect, it } from 'vitest';
import { ApiError, messageFor, unwrap } from './api-error';

describe('unwrap', () => {
  it('returns data of a successful envelope', () => {
    expect(unwrap({ error: 0, msg: 'ok', data: { id: 1 } })).toEqual({ id: 1 });
  });

  it('throws the server msg for error ≠ 0, or a Chinese default when msg is empty', () => {
    expect(() => unwrap({ error: 409, msg: '用户名已存在' })).toThrow(new ApiError(409, '用户名已存在'));
    expect(() => unwrap({ error: 403, msg: '' })).toThrow('没有权限执行此操作');
    expect(() => unwrap({ error: 999, msg: '' })).toThrow('请求失败（错误码 999）');
  });
});

describe('messageFor', () => {
  it('tells a 429 when to come back, without repeating what the server said', () => {
    expect(messageFor(429, '打开的实时收信连接过多')).toBe('打开的实时收信连接过多，请稍后再试');
    expect(messageFor(429, '登录失败次数过多，请 15 分钟后再试')).toBe('登录失败次数过多，请 15 分钟后再试');
    expect(messageFor(429, '')).toBe('操作过于频繁，请稍后再试');
    expect(messageFor(403, '临时邮箱只能发信给本站域名的地址')).toBe('临时邮箱只能发信给本站域名的地址');
    expect(messageFor(507, '')).toMatch(/存储空间已满/);
  });
});
