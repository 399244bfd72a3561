import type { AddBlacklistQuery, BlacklistItem } from '@youju/contract';
import { ApiError } from '../../lib/api-error.js';
import { parseTimeInput, toIso } from '../../lib/time.js';
import { canonicalIpEntry, type FirewallService } from './firewall-service.js';

/**
 * The administrator's view of the IP blacklist (/api/waf/…): validated, normalised entries with
 * an optional expiry, and a guard against banning one's own address by mistake.
 */
export function createBlacklistService(firewall: FirewallService) {
  return {
    async list(now = Date.now()): Promise<BlacklistItem[]> {
      const rows = await firewall.list();
      return rows.map((row) => ({
        ip: row.ip,
        reason: row.reason,
        createdAt: toIso(row.created_at),
        expiresAt: toIso(row.expires_at),
        source: row.source,
        active: row.expires_at === null || row.expires_at > now,
      }));
    },

    async add(input: AddBlacklistQuery, callerIp: string, now = Date.now()): Promise<{ ip: string }> {
      const entry = canonicalIpEntry(input.ip);
      if (!entry) {
        throw ApiError.badRequest(
          'IP 地址（ip）格式不正确：请填写单个 IPv4/IPv6 地址，或 CIDR 网段（如 203.0.113.0/24、2001:db8::/32）',
        );
      }
      let expiresAt: number | null = null;
      const expiry = input.expiresAt?.trim();
      if (expiry) {
        expiresAt = parseTimeInput(/^\d+$/.test(expiry) ? Number(expiry) : expiry);
        if (expiresAt === null) {
          throw ApiError.badRequest('到期时间（expiresAt）格式不正确，请使用 ISO 8601 时间或毫秒时间戳');
        }
        if (expiresAt <= now) throw ApiError.badRequest('到期时间（expiresAt）必须晚于现在');
      }
      if (firewall.contains(entry, callerIp) && input.confirm !== 1) {
        throw ApiError.conflict(
          `${entry} 包含您当前的 IP 地址（${callerIp}），封禁后您将无法访问本站。确认要封禁请加上 confirm=1`,
        );
      }
      await firewall.block(entry, input.reason?.trim() || '管理员手动封禁', expiresAt, 'manual');
      return { ip: entry };
    },

    async remove(ip: string): Promise<void> {
      if (!canonicalIpEntry(ip)) throw ApiError.badRequest('IP 地址（ip）格式不正确');
      if (!(await firewall.unblock(ip))) throw ApiError.notFound('黑名单中没有这个地址');
    },
  };
}

export type BlacklistService = ReturnType<typeof createBlacklistService>;
