import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('response envelope', () => {
  it('answers unknown /api paths with the 404 envelope', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const { status, body } = await server.api(method, 'user/noSuchCall');
      expect(status).toBe(404);
      expect(body).toMatchObject({ error: 404 });
      expect(body.msg).toMatch(/接口不存在/);
    }
    expect((await server.api('GET', '')).status).toBe(404);
  });

  it('answers malformed JSON with 400 and a Chinese message', async () => {
    const { status, body } = await server.api('POST', 'login', { body: '{"username": "a",' });
    expect(status).toBe(400);
    expect(body.error).toBe(400);
    expect(body.msg).toMatch(/JSON/);
  });

  it('answers missing and ill-typed fields with 400 naming the field', async () => {
    let result = await server.api('POST', 'login', { body: { password: 'x' } });
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain('用户名');
    result = await server.api('POST', 'login', { body: { username: 42, password: 'x' } });
    expect(result.status).toBe(400);
    expect(result.body.msg).toMatch(/用户名.*类型/);
    result = await server.api('POST', 'login', { body: [1, 2] });
    expect(result.status).toBe(400);
    result = await server.api('POST', 'login', { body: 'null' });
    expect(result.status).toBe(400);
  });

  it('answers a huge body with 413, never 500', async () => {
    const huge = JSON.stringify({ username: 'a'.repeat(2 * 1024 * 1024), password: 'x' });
    const { status, body } = await server.api('POST', 'login', { body: huge });
    expect(status).toBe(413);
    expect(body.error).toBe(413);
    expect(body.msg).toMatch(/过大/);
  });

  it('answers a wrong content type with 400', async () => {
    const { status, body } = await server.api('POST', 'login', {
      body: 'username=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(status).toBe(400);
    expect(body.error).toBe(400);
  });

  it('answers calls without login with error 302 and url /auth over HTTP 401', async () => {
    const { status, body } = await server.api('GET', 'user/getDomains');
    expect(status).toBe(401);
    expect(body).toEqual({ error: 302, msg: '登录状态已过期，请先登录', url: '/auth' });
    const bad = await server.api('GET', 'user/getDomains', { token: 'not-a-real-token' });
    expect(bad.body.error).toBe(302);
  });

  it('rejects ill-typed query strings', async () => {
    const token = await server.adminToken();
    const { status, body } = await server.api('GET', 'admin/getSysAccount?page=abc', { token });
    expect(status).toBe(400);
    expect(body.msg).toContain('页码');
    const tooBig = await server.api('GET', 'admin/getSysAccount?pageSize=1000', { token });
    expect(tooBig.status).toBe(400);
  });
});
