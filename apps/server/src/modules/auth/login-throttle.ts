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

/**
 * Attempts on one account from sources that never logged into it, across all such sources, before
 * they are refused too: a slow guess spread over many addresses. The owner's own sources (known from
 * the login history) are never held back by it.
 */
export const STRANGER_ATTEMPTS_FACTOR = 10;

export interface ThrottleOptions {
  /** where attempts are counted (in memory by default) */
  rateLimits?: RateLimits;
  /** read on every check, so that a change of the settings applies at once */
  limits?: () => Promise<ThrottleLimits>;
  /** puts an address on the blacklist (modules/firewall) */
  ban?: (ip: string, reason: string, minutes: number) => Promise<void>;
}

/** One admitted attempt: the caller reports how it ended. */
export interface LoginAttemptTicket {
  /** the password was right: the attempt stops counting against the source */
  succeeded(): Promise<void>;
  /** the password was wrong: the attempt stays counted; bans the source at its limit */
  failed(): Promise<void>;
}

/**
 * Throttles logins per account *and* source, and per source (the `login*` settings; the limits are
 * listed in docs/api.md, "Rate limits and bans").
 *
 * Every attempt is counted *before* the password is checked, by an increment that returns the new
 * count in one step (`RateLimit.hit`: a synchronous update in this process, one SQL statement in the
 * shared database), so that a burst of parallel guesses is cut off at the limit: the k-th attempt
 * sees at least k, whatever the interleaving. A right password takes its attempt back.
 *
 * Counting per account and source means a stranger's wrong passwords lock only the stranger out:
 * the owner logs in from their own address as usual. A source that fails too often overall is put on
 * the blacklist for `banMinutes`.
 */
export function createLoginThrottle(options: ThrottleOptions = {}) {
  const rateLimits = options.rateLimits ?? memoryRateLimits();
  let windowMinutes = 0;
  let byIp: RateLimit = rateLimits('login-ip:0', 1);
  let byAccountAndIp: RateLimit = rateLimits('login-account-ip:0', 1);
  let byAccountFromStrangers: RateLimit = rateLimits('login-account-strangers:0', 1);

  async function current(): Promise<ThrottleLimits> {
    const limits = options.limits ? await options.limits() : DEFAULT_THROTTLE_LIMITS;
    if (limits.windowMinutes !== windowMinutes) {
      // A new window length starts the counts afresh.
      windowMinutes = limits.windowMinutes;
      const windowMs = windowMinutes * 60_000;
      byIp = rateLimits(`login-ip:${windowMinutes}`, windowMs);
      byAccountAndIp = rateLimits(`login-account-ip:${windowMinutes}`, windowMs);
      byAccountFromStrangers = rateLimits(`login-account-strangers:${windowMinutes}`, windowMs);
    }
    return limits;
  }

  async function banAtLimit(ip: string, attempts: number, limits: ThrottleLimits): Promise<void> {
    if (attempts < limits.maxPerIp || limits.banMinutes <= 0 || !options.ban) return;
    await options.ban(
      ip,
      `${limits.windowMinutes} 分钟内登录失败 ${attempts} 次，自动封禁 ${limits.banMinutes} 分钟`,
      limits.banMinutes,
    );
    // The blacklist refuses the address from now on; the count starts over once the ban ends.
    await byIp.reset(ip);
  }

  return {
    /**
     * Admits one attempt on `account` from `ip`, or refuses it with 429. Call before checking the
     * password, and report the outcome on the ticket.
     */
    async admit(
      ip: string,
      account: string,
      /** whether `ip` has logged into this account successfully before (the login history) */
      knownSource: () => Promise<boolean> = async () => false,
    ): Promise<LoginAttemptTicket> {
      const limits = await current();
      const retryAfter = limits.windowMinutes * 60;
      const accountKey = account.toLowerCase();
      const pairKey = `${accountKey}\n${ip}`;
      const ipCounter = byIp;
      const pairCounter = byAccountAndIp;
      const ipAttempts = await ipCounter.hit(ip);
      const pairAttempts = await pairCounter.hit(pairKey);
      if (ipAttempts > limits.maxPerIp) {
        await banAtLimit(ip, ipAttempts, limits);
        throw ApiError.tooMany(`登录失败次数过多，请 ${limits.windowMinutes} 分钟后再试`, retryAfter);
      }
      if (pairAttempts > limits.maxPerAccount) {
        throw ApiError.tooMany(
          `该账号在当前网络登录失败次数过多，已临时锁定，请 ${limits.windowMinutes} 分钟后再试`,
          retryAfter,
        );
      }
      let strangerCounted = false;
      if (!(await knownSource())) {
        strangerCounted = true;
        const strangerAttempts = await byAccountFromStrangers.hit(accountKey);
        if (strangerAttempts > limits.maxPerAccount * STRANGER_ATTEMPTS_FACTOR) {
          throw ApiError.tooMany(
            `该账号近期在陌生网络登录失败次数过多，已临时锁定，请 ${limits.windowMinutes} 分钟后再试，或在常用网络登录`,
            retryAfter,
          );
        }
      }
      const strangerCounter = byAccountFromStrangers;
      return {
        async succeeded() {
          await pairCounter.reset(pairKey);
          await ipCounter.release(ip);
          if (strangerCounted) await strangerCounter.release(accountKey);
        },
        async failed() {
          await banAtLimit(ip, ipAttempts, limits);
        },
      };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
