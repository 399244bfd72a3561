import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandling } from './error-handling.js';

/**
 * A full disk or database (ENOSPC, SQLITE_FULL, PostgreSQL 53100) used to answer an unexplained 500.
 * The failure is injected here: filling a real disk is not something a test run may do.
 */
describe('storage-full errors', () => {
  it('answer 507 with a Chinese message saying nothing changed', async () => {
    const app = Fastify({ logger: false });
    installErrorHandling(app);
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']) {
      app.post(`/fail-${code}`, async () => {
        throw Object.assign(new Error('no space left'), { code });
      });
    }
    app.post('/other', async () => {
      throw new Error('boom');
    });
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']) {
      const response = await app.inject({ method: 'POST', url: `/fail-${code}` });
      expect(response.statusCode).toBe(507);
      expect(response.json()).toMatchObject({
        error: 507,
        msg: expect.stringMatching(/存储空间已满.*数据未改动/),
      });
    }
    const other = await app.inject({ method: 'POST', url: '/other' });
    expect(other.statusCode).toBe(500);
    expect(other.json().msg).not.toContain('boom');
    await app.close();
  });
});
