import { describe, expect, it } from 'vitest';
import { ApiError, unwrap } from './api-error';

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
