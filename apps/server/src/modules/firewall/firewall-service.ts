import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type IpRange, normalizeIp, parseIpRange, rangeContains } from './ip-match.js';

/** How long the blacklist is cached: every SMTP connection asks, the table changes rarely. */
const CACHE_MS = 5_000;

/**
 * The IP blacklist as the listeners see it (PRODUCT.md "Firewall"): single addresses and CIDR
 * ranges of both families, with optional expiry. Cached briefly so that a connection flood costs
 * no database round trip per connection; `invalidate()` after a change makes it exact in this
 * process, other processes follow within CACHE_MS.
 */
export function createFirewallService(db: Kysely<Database>) {
  interface Snapshot {
    loadedAt: number;
    ranges: { range: IpRange; expiresAt: number | null }[];
  }
  let cache: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;

  async function load(): Promise<Snapshot> {
    const rows = await db.selectFrom('ip_blacklist').select(['ip', 'expires_at']).execute();
    const ranges = [];
    for (const row of rows) {
      const range = parseIpRange(row.ip);
      if (range) ranges.push({ range, expiresAt: row.expires_at });
    }
    return { loadedAt: Date.now(), ranges };
  }

  async function current(): Promise<Snapshot> {
    if (cache && Date.now() - cache.loadedAt < CACHE_MS) return cache;
    loading ??= load().finally(() => {
      loading = null;
    });
    cache = await loading;
    return cache;
  }

  return {
    async isBlocked(ip: string): Promise<boolean> {
      const address = normalizeIp(ip);
      if (!address) return false;
      const now = Date.now();
      const { ranges } = await current();
      return ranges.some(
        (entry) => (entry.expiresAt === null || entry.expiresAt > now) && rangeContains(entry.range, address),
      );
    },

    /** Adds or refreshes an entry (used by the login throttle and, later, the firewall API). */
    async block(ip: string, reason: string, expiresAt: number | null = null): Promise<void> {
      const range = parseIpRange(ip);
      if (!range) throw new Error(`not an IP address or range: ${ip}`);
      const text = ip.trim();
      await db
        .insertInto('ip_blacklist')
        .values({ ip: text, reason, created_at: Date.now(), expires_at: expiresAt })
        .onConflict((conflict) => conflict.column('ip').doUpdateSet({ reason, expires_at: expiresAt }))
        .execute();
      cache = null;
    },

    invalidate(): void {
      cache = null;
    },
  };
}

export type FirewallService = ReturnType<typeof createFirewallService>;
