import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt parameters: N=2^15, r=8, p=1 (about 32 MiB and ~50 ms per hash here). */
const PRODUCTION_N = 32768;
/**
 * The cost the test suites hash with (N=2^10: 1 MiB, well under a millisecond). Every test server
 * creates an administrator, logs in and creates accounts: thousands of hashes per run, which at the
 * production cost were a large share of the suites' time (and, 32 MiB each on the libuv pool, of
 * their memory). Same code, same stored format (the parameters are part of each hash, so a test
 * hash verifies like any other); `passwords.test.ts` checks the production parameters.
 */
const TEST_N = 1024;
/**
 * Only when both hold: NODE_ENV=test (set by the test runner, never by a deployment) and
 * YOUJU_TEST_FAST_PASSWORDS=1 (set by vitest.config.ts and the test support that starts servers).
 * Read at each hash, so a test can check both costs in one process.
 */
function costN(): number {
  return process.env.NODE_ENV === 'test' && process.env.YOUJU_TEST_FAST_PASSWORDS === '1'
    ? TEST_N
    : PRODUCTION_N;
}
const r = 8;
const p = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      // Twice what the production parameters need.
      { ...options, maxmem: 128 * PRODUCTION_N * r * 2 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** Stored form: `scrypt$N$r$p$salt$hash` (base64), so parameters can grow later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = costN();
  const key = await derive(password, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check so that timing does not tell which accounts exist.
    await derive(password, Buffer.alloc(16), { N: costN(), r, p });
    return false;
  }
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
