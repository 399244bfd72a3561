import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('hashes with scrypt and a random salt, and verifies', async () => {
    // The production cost, whatever the suite's own setting (vitest.config.ts).
    vi.stubEnv('YOUJU_TEST_FAST_PASSWORDS', undefined);
    const first = await hashPassword('密码 secret');
    const second = await hashPassword('密码 secret');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('密码 secret', first)).toBe(true);
    expect(await verifyPassword('密码 Secret', first)).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });

  it('hashes at the test cost only under the test runner, and verifies either against the other', async () => {
    vi.stubEnv('YOUJU_TEST_FAST_PASSWORDS', '1');
    vi.stubEnv('NODE_ENV', 'production');
    const production = await hashPassword('密码 secret');
    expect(production).toMatch(/^scrypt\$32768\$8\$1\$/);
    vi.stubEnv('NODE_ENV', 'test');
    const cheap = await hashPassword('密码 secret');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    // The parameters travel with each hash: either verifies at either setting.
    expect(await verifyPassword('密码 secret', production)).toBe(true);
    expect(await verifyPassword('密码 secret', cheap)).toBe(true);
    expect(await verifyPassword('密码 Secret', cheap)).toBe(false);
  });
});
