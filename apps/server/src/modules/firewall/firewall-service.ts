import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';
import {
  deleteBlacklistEntriesExpiredBefore,
  deleteBlacklistEntry,
  findBlacklistEntryExpiry,
  listBlacklistEntries,
  listBlacklistRanges,
  saveBlacklistEntry,
} from '../../db/repositories/blacklist-repo.js';
import type { Database } from '../../db/schema.js';
import { type IpRange, normalizeIp, parseIpRange, rangeContains } from './ip-match.js';

/**
 * How long the blacklist is cached: every SMTP connection and HTTP request asks, the table changes
 * rarely. One second bounds how late another process sharing the database sees a new ban.
 */
const CACHE_MS = 1_000;

export type BlacklistSource = 'manual' | 'login' | 'smtp';

/** What refuses an address: an operator's entry, or an automatic ban (temporary by nature). */
export interface Block {
  automatic: boolean;
  /** epoch ms, null = permanent */
  expiresAt: number | null;
}

export interface FirewallOptions {
  /** the operator's `banAllowList` (addresses and ranges automatic bans never touch) */
  allowList?: () => Promise<string[]>;
}

/**
 * The loopback addresses the operator, a reverse proxy on the same host and the server itself
 * connect from: never banned automatically. (The rest of 127/8 is only used deliberately, e.g. by
 * the tests, which play remote clients from 127.0.0.2 and up.)
 */
const LOOPBACK = ['127.0.0.1', '::1'].map((entry) => parseIpRange(entry) as IpRange);

/** The addresses of this machine's own interfaces, read once. */
function ownAddresses(): IpRange[] {
  const ranges: IpRange[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const range = parseIpRange(entry.address.split('%')[0] ?? '');
      if (range) ranges.push(range);
    }
  }
  return ranges;
}

/**
 * The canonical spelling of an entry: `2001:DB8:0::1` → `2001:db8::1`, `::ffff:1.2.3.4` → `1.2.3.4`,
 * `10.1.2.3/8` → `10.0.0.0/8` (host bits cleared). Null when it is not an address or range.
 */
export function canonicalIpEntry(text: string): string | null {
  const range = parseIpRange(text);
  if (!range) return null;
  const full = range.address.kind() === 'ipv4' ? 32 : 128;
  if (range.prefix === full && !text.includes('/')) return range.address.toString();
  const bytes = range.address.toByteArray();
  for (let bit = range.prefix; bit < full; bit++) {
    const index = Math.floor(bit / 8);
    bytes[index] = (bytes[index] ?? 0) & ~(0x80 >> (bit % 8));
  }
  return `${ipaddr.fromByteArray(bytes).toString()}/${range.prefix}`;
}

/**
 * The IP blacklist as the HTTP and SMTP listeners see it: single addresses and CIDR
 * ranges of both families, with optional expiry. Cached briefly so that a connection flood costs
 * no database round trip per connection; `invalidate()` after a change makes it exact in this
 * process, other processes follow within CACHE_MS.
 */
export function createFirewallService(db: Kysely<Database>, options: FirewallOptions = {}) {
  interface Snapshot {
    loadedAt: number;
    ranges: { range: IpRange; expiresAt: number | null; automatic: boolean }[];
  }
  const own = ownAddresses();

  /**
   * Automatic bans never touch loopback, this machine's own addresses or the operator's allow-list:
   * a ban there would lock the operator out of the web screens, or the server out of itself.
   */
  async function exempt(ip: string): Promise<boolean> {
    const address = normalizeIp(ip);
    if (!address) return true;
    if ([...LOOPBACK, ...own].some((range) => rangeContains(range, address))) return true;
    const allowList = (await options.allowList?.()) ?? [];
    return allowList.some((entry) => {
      const range = parseIpRange(entry);
      return range !== null && rangeContains(range, address);
    });
  }
  let cache: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;

  async function load(): Promise<Snapshot> {
    const rows = await listBlacklistRanges(db);
    const ranges = [];
    for (const row of rows) {
      const range = parseIpRange(row.ip);
      if (range) ranges.push({ range, expiresAt: row.expires_at, automatic: row.source !== 'manual' });
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

  /** The entry that refuses `ip`, an operator's in preference to an automatic one; null = none. */
  async function blockOf(ip: string): Promise<Block | null> {
    const address = normalizeIp(ip);
    if (!address) return null;
    const now = Date.now();
    const { ranges } = await current();
    let found: Block | null = null;
    for (const entry of ranges) {
      if ((entry.expiresAt !== null && entry.expiresAt <= now) || !rangeContains(entry.range, address))
        continue;
      if (!entry.automatic) return { automatic: false, expiresAt: entry.expiresAt };
      found = { automatic: true, expiresAt: entry.expiresAt };
    }
    return found;
  }

  return {
    blockOf,

    async isBlocked(ip: string): Promise<boolean> {
      return (await blockOf(ip)) !== null;
    },

    /** Whether automatic bans leave `ip` alone (loopback, own addresses, the allow-list). */
    exempt,

    /** Adds or refreshes an entry, stored in its canonical spelling (see `canonicalIpEntry`). */
    async block(
      ip: string,
      reason: string,
      expiresAt: number | null = null,
      source: BlacklistSource = 'manual',
    ): Promise<void> {
      const text = canonicalIpEntry(ip);
      if (!text) throw new Error(`not an IP address or range: ${ip}`);
      const now = Date.now();
      await saveBlacklistEntry(db, { ip: text, reason, created_at: now, expires_at: expiresAt, source });
      cache = null;
    },

    /**
     * An automatic ban for `minutes` (login throttling, SMTP abuse). Never shortens a longer or
     * permanent ban an administrator set on the same entry.
     */
    async ban(ip: string, reason: string, minutes: number, source: BlacklistSource = 'smtp'): Promise<void> {
      const text = canonicalIpEntry(ip);
      if (!text || minutes <= 0 || (await exempt(ip))) return;
      const expiresAt = Date.now() + minutes * 60_000;
      const existing = await findBlacklistEntryExpiry(db, text);
      if (existing && (existing.expires_at === null || existing.expires_at > expiresAt)) return;
      await this.block(text, reason, expiresAt, source);
    },

    /** Removes one entry (as added, in any spelling); false when it was not there. */
    async unblock(ip: string): Promise<boolean> {
      const text = canonicalIpEntry(ip);
      if (!text) return false;
      const deleted = await deleteBlacklistEntry(db, text);
      cache = null;
      return deleted;
    },

    /** Every entry, newest first, expired ones included until they are purged. */
    async list() {
      return listBlacklistEntries(db);
    },

    /** Whether the entry (address or range) covers `ip` (the administrator's own-address check). */
    contains(entry: string, ip: string): boolean {
      const range = parseIpRange(entry);
      const address = normalizeIp(ip);
      return range !== null && address !== null && rangeContains(range, address);
    },

    /** Drops entries that expired more than `graceMs` ago. */
    async purgeExpired(graceMs: number, now = Date.now()): Promise<number> {
      const deleted = await deleteBlacklistEntriesExpiredBefore(db, now - graceMs);
      if (deleted > 0) cache = null;
      return deleted;
    },

    invalidate(): void {
      cache = null;
    },
  };
}

export type FirewallService = ReturnType<typeof createFirewallService>;
