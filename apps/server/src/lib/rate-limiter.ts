/**
 * Counts events per key in a sliding window (fixed buckets of a tenth of the window), in this
 * process. `hit` is synchronous, so an increment and the count it returns are one step: callers
 * that check the returned count never race each other.
 */
export interface RateLimiter {
  /** Records one event; returns how many the key has in the window, this one included. */
  hit(key: string, now?: number): number;
  count(key: string, now?: number): number;
  /** Takes one event back (an attempt that turned out legitimate). */
  release(key: string, now?: number): void;
  reset(key: string): void;
}

export function createRateLimiter(windowMs: number, maxKeys = 100_000): RateLimiter {
  const bucketMs = Math.max(1, Math.floor(windowMs / 10));
  const buckets = new Map<string, Map<number, number>>();

  function live(key: string, now: number): Map<number, number> | undefined {
    const entry = buckets.get(key);
    if (!entry) return undefined;
    const oldest = Math.floor((now - windowMs) / bucketMs);
    for (const bucket of entry.keys()) if (bucket <= oldest) entry.delete(bucket);
    if (entry.size === 0) buckets.delete(key);
    return entry.size ? entry : undefined;
  }

  function sum(entry: Map<number, number> | undefined): number {
    let total = 0;
    for (const value of entry?.values() ?? []) total += value;
    return total;
  }

  return {
    hit(key, now = Date.now()) {
      let entry = live(key, now);
      if (!entry) {
        if (buckets.size >= maxKeys) {
          // Forget the oldest key rather than grow without bound under a flood of distinct keys.
          const first = buckets.keys().next().value;
          if (first !== undefined) buckets.delete(first);
        }
        entry = new Map();
        buckets.set(key, entry);
      }
      const bucket = Math.floor(now / bucketMs);
      entry.set(bucket, (entry.get(bucket) ?? 0) + 1);
      return sum(entry);
    },
    count(key, now = Date.now()) {
      return sum(live(key, now));
    },
    release(key, now = Date.now()) {
      const entry = live(key, now);
      if (!entry) return;
      // The newest bucket holding an event: the one the taken-back event was most likely counted in.
      const newest = Math.max(...entry.keys());
      const value = (entry.get(newest) ?? 0) - 1;
      if (value > 0) entry.set(newest, value);
      else entry.delete(newest);
      if (entry.size === 0) buckets.delete(key);
    },
    reset(key) {
      buckets.delete(key);
    },
  };
}

/** A named limit as the services use it; asynchronous so that it can live in the database. */
export interface RateLimit {
  /** Records one event; resolves to how many the key has in the window, this one included. */
  hit(key: string): Promise<number>;
  count(key: string): Promise<number>;
  /** Takes one event back (an attempt that turned out legitimate). */
  release(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * Where the limits live: in this process (SQLite, one process) or in the shared database, so that
 * several processes against one PostgreSQL count together.
 * `name` tells limits apart; one name is always used with one window.
 */
export type RateLimits = (name: string, windowMs: number) => RateLimit;

export function memoryRateLimits(): RateLimits {
  // One limiter per name, so that callers asking for the same limit (the SMTP and SMTPS listeners'
  // abuse counts) count together, as they do in the database.
  const limits = new Map<string, RateLimit>();
  return (name, windowMs) => {
    const key = `${name}\n${windowMs}`;
    let limit = limits.get(key);
    if (!limit) {
      const limiter = createRateLimiter(windowMs);
      limit = {
        hit: async (entry) => limiter.hit(entry),
        count: async (entry) => limiter.count(entry),
        release: async (entry) => limiter.release(entry),
        reset: async (entry) => limiter.reset(entry),
      };
      limits.set(key, limit);
    }
    return limit;
  };
}
