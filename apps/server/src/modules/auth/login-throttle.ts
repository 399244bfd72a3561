import { ApiError } from '../../lib/api-error.js';
import { createRateLimiter } from '../../lib/rate-limiter.js';

const WINDOW_MS = 15 * 60_000;
/** Failed attempts allowed per window from one IP, and against one account. */
const MAX_PER_IP = 20;
const MAX_PER_ACCOUNT = 5;

/**
 * Throttles failed logins per IP and per account (PRODUCT.md "Auth"). Only failures count, so a
 * person who types the password right is never slowed down by others' mistakes on their IP.
 */
export function createLoginThrottle() {
  const byIp = createRateLimiter(WINDOW_MS);
  const byAccount = createRateLimiter(WINDOW_MS);
  const minutes = WINDOW_MS / 60_000;

  return {
    check(ip: string, account: string): void {
      if (byIp.count(ip) >= MAX_PER_IP) {
        throw ApiError.tooMany(`登录失败次数过多，请 ${minutes} 分钟后再试`, WINDOW_MS / 1000);
      }
      if (byAccount.count(account.toLowerCase()) >= MAX_PER_ACCOUNT) {
        throw ApiError.tooMany(
          `该账号登录失败次数过多，已临时锁定，请 ${minutes} 分钟后再试`,
          WINDOW_MS / 1000,
        );
      }
    },
    failed(ip: string, account: string): void {
      byIp.hit(ip);
      byAccount.hit(account.toLowerCase());
    },
    succeeded(account: string): void {
      byAccount.reset(account.toLowerCase());
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
