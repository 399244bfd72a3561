import { ApiError } from '../../lib/api-error.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { HOUR } from '../../lib/time.js';
import type { SettingsService } from '../settings/index.js';

/**
 * `registerPerIpPerHour`: mailboxes a source address may
 * obtain per hour through regEmail, buyEmail and verCard together, against mass creation of
 * throw-away senders. The slot is taken before the work (an increment that returns the new count in
 * one step, so parallel requests cannot overshoot) and given back when the request fails, so that a
 * taken name or a typo does not use up a visitor's hour.
 */
export function createSignUpLimit(rateLimits: RateLimits, settings: SettingsService) {
  // One name for the three calls: they share one count per address (in the database on PostgreSQL).
  const signUps = rateLimits('sign-ups', HOUR);
  return {
    async run<T>(ip: string, work: () => Promise<T>): Promise<T> {
      const { registerPerIpPerHour } = await settings.get();
      if (registerPerIpPerHour <= 0) return work();
      if ((await signUps.hit(ip)) > registerPerIpPerHour) {
        await signUps.release(ip);
        throw ApiError.tooMany(
          `同一网络每小时最多注册或购买 ${registerPerIpPerHour} 个邮箱，请一小时后再试`,
          3600,
        );
      }
      try {
        return await work();
      } catch (error) {
        await signUps.release(ip);
        throw error;
      }
    },
  };
}

export type SignUpLimit = ReturnType<typeof createSignUpLimit>;
