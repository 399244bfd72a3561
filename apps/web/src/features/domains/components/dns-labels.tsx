import type { DnsCheckStatus, Domain } from '@youju/contract';
import { Tag } from 'antd';

/** Chinese names and colours of a domain's overall DNS state (getDomains' dnsStatus). */
const domainStatus: Record<Domain['dnsStatus'], { text: string; color: string }> = {
  unchecked: { text: '未检查', color: 'default' },
  ok: { text: '全部正确', color: 'success' },
  partial: { text: '部分正确', color: 'warning' },
  failed: { text: '未生效', color: 'error' },
};

export function DnsStatusTag({ status }: { status: Domain['dnsStatus'] }) {
  const label = domainStatus[status] ?? domainStatus.unchecked;
  return <Tag color={label.color}>{label.text}</Tag>;
}

/** Per-record state of checkDNS. */
const recordStatus: Record<DnsCheckStatus, { text: string; color: string }> = {
  ok: { text: '正确', color: 'success' },
  missing: { text: '缺失', color: 'error' },
  wrong: { text: '错误', color: 'warning' },
  timeout: { text: '查询超时', color: 'default' },
};

export function RecordStatusTag({ status }: { status: DnsCheckStatus }) {
  const label = recordStatus[status] ?? recordStatus.missing;
  return <Tag color={label.color}>{label.text}</Tag>;
}

/** What each record is for, in words a domain owner knows. */
export const recordPurpose: Record<string, string> = {
  MX: 'MX（收信）',
  SPF: 'SPF（发信授权）',
  DKIM: 'DKIM（邮件签名）',
  DMARC: 'DMARC（验证策略）',
};

/** The host field people type at their DNS provider: `@` for the domain itself. */
export function hostLabel(name: string, domain: string): string {
  if (name === domain) return '@';
  return name.endsWith(`.${domain}`) ? name.slice(0, -(domain.length + 1)) : name;
}
