import { ApiError } from '../../lib/api-error.js';
import { memoryRateLimits, type RateLimit, type RateLimits } from '../../lib/rate-limiter.js';

/** The throttling settings (system settings `login*`, editable without restart). */
export interface ThrottleLimits {
  maxPerIp: number;
  maxPerAccount: number;
  windowMinutes: number;
  /** 0 = never ban automatically */
  banMinutes: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  maxPerIp: 20,
  maxPerAccount: 5,
  windowMinutes: 15,
  banMinutes: 60,
};

export interface ThrottleOptions {
  /** where failures are counted (in memory by default) */
  rateLimits?: RateLimits;
  /** read on every check, so that a change of the settings applies at once */
  limits?: () => Promise<ThrottleLimits>;
  /** puts an address on the blacklist (modules/firewall) */
  ban?: (ip: string, reason: string, minutes: number) => Promise<void>;
}

/**
 * Throttles failed logins per IP and per account (PRODUCT.md "Auth"). Only failures count, so a
 * person who types the password right is never slowed down by others' mistakes on their IP. When
 * one IP reaches its limit it is also put on the blacklist for `banMinutes`: "repeated abuse puts
 * the IP on the blacklist for a while".
 */
export function createLoginThrottle(options: ThrottleOptions = {}) {
  const rateLimits = options.rateLimits ?? memoryRateLimits();
  let windowMinutes = 0;
  let byIp: RateLimit = rateLimits('login-ip:0', 1);
  let byAccount: RateLimit = rateLimits('login-account:0', 1);

  async function current(): Promise<ThrottleLimits> {
    const limits = options.limits ? await options.limits() : DEFAULT_THROTTLE_LIMITS;
    if (limits.windowMinutes !== windowMinutes) {
      // A new window length starts the counts afresh.
      windowMinutes = limits.windowMinutes;
      byIp = rateLimits(`login-ip:${windowMinutes}`, windowMinutes * 60_000);
      byAccount = rateLimits(`login-account:${windowMinutes}`, windowMinutes * 60_000);
    }
    return limits;
  }

  return {
    async check(ip: string, account: string): Promise<void> {
      const limits = await current();
      const retryAfter = limits.windowMinutes * 60;
      if ((await byIp.count(ip)) >= limits.maxPerIp) {
        throw ApiError.tooMany(`登录失败次数过多，请 ${limits.windowMinutes} 分钟后再试`, retryAfter);
      }
      if ((await byAccount.count(account.toLowerCase())) >= limits.maxPerAccount) {
        throw ApiError.tooMany(
          `该账号登录失败次数过多，已临时锁定，请 ${limits.windowMinutes} 分钟后再试`,
          retryAfter,
        );
      }
    },
    async failed(ip: string, account: string): Promise<void> {
      const limits = await current();
      const failures = await byIp.hit(ip);
      await byAccount.hit(account.toLowerCase());
      if (failures >= limits.maxPerIp && limits.banMinutes > 0 && options.ban) {
        await options.ban(
          ip,
          `${limits.windowMinutes} 分钟内登录失败 ${failures} 次，自动封禁 ${limits.banMinutes} 分钟`,
          limits.banMinutes,
        );
        // The blacklist refuses the address from now on; the count starts over once the ban ends.
        await byIp.reset(ip);
      }
    },
    async succeeded(account: string): Promise<void> {
      await byAccount.reset(account.toLowerCase());
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
