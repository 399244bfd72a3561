import { RESERVED_LOCAL_PARTS } from '@youju/contract';
import { ApiError } from '../../lib/api-error.js';
import type { SettingsService } from '../settings/index.js';

const BUILT_IN = new Set(RESERVED_LOCAL_PARTS);

/**
 * Whether `localPart` is a reserved role address (`postmaster`, `admin`, `hostmaster` …): the
 * contract's list plus the operator's `reservedLocalParts`, compared without case. Whoever reads
 * `admin@` or `postmaster@` of a domain can pass a certificate authority's e-mail validation for it,
 * so only the domain's owner or an administrator may create them.
 */
export function isReservedLocalPart(localPart: string, extra: readonly string[]): boolean {
  const name = localPart.trim().toLowerCase();
  return BUILT_IN.has(name) || extra.some((entry) => entry.trim().toLowerCase() === name);
}

/** Refuses a role address to anyone but the owner or an administrator (visitors, cards, the store). */
export async function refuseReservedLocalPart(settings: SettingsService, localPart: string): Promise<void> {
  const { reservedLocalParts } = await settings.get();
  if (isReservedLocalPart(localPart, reservedLocalParts)) {
    throw ApiError.forbidden(
      `邮箱前缀 ${localPart.toLowerCase()} 是保留的管理地址（如 admin、postmaster），只有域名所有者可以创建，请换一个前缀`,
    );
  }
}

/** A pending domain (DNS ownership not yet proven) gets no addresses. */
export function refusePendingDomain(domain: { name: string; status: string }): void {
  if (domain.status !== 'active') {
    throw ApiError.forbidden(
      `域名 ${domain.name} 尚未通过所有权验证，请先在域名管理中添加 TXT 记录并点击“验证”`,
    );
  }
}
