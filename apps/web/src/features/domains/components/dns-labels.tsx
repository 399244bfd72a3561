import type { DnsCheckStatus, Domain } from '@youju/contract';
import { Tag } from 'antd';
import { t } from '../../../lib/i18n';

/**
 * Names and colours of a domain's overall DNS state (getDomains' dnsStatus). These tables are
 * functions so that their words are read in the interface's language at render.
 */
const domainStatus = (): Record<Domain['dnsStatus'], { text: string; color: string }> => ({
  unchecked: { text: t('未检查'), color: 'default' },
  ok: { text: t('全部正确'), color: 'success' },
  partial: { text: t('部分正确'), color: 'warning' },
  failed: { text: t('未生效'), color: 'error' },
});

export function DnsStatusTag({ status }: { status: Domain['dnsStatus'] }) {
  const label = domainStatus()[status] ?? domainStatus().unchecked;
  return <Tag color={label.color}>{label.text}</Tag>;
}

/** Per-record state of checkDNS. */
const recordStatus = (): Record<DnsCheckStatus, { text: string; color: string }> => ({
  ok: { text: t('正确'), color: 'success' },
  missing: { text: t('缺失'), color: 'error' },
  wrong: { text: t('错误'), color: 'warning' },
  timeout: { text: t('查询超时'), color: 'default' },
});

export function RecordStatusTag({ status }: { status: DnsCheckStatus }) {
  const label = recordStatus()[status] ?? recordStatus().missing;
  return <Tag color={label.color}>{label.text}</Tag>;
}

/** What each record is for, in words a domain owner knows. */
export const recordPurpose = (): Record<string, string> => ({
  MX: t('MX（收信）'),
  SPF: t('SPF（发信授权）'),
  DKIM: t('DKIM（邮件签名）'),
  DMARC: t('DMARC（验证策略）'),
});

/** The host field people type at their DNS provider: `@` for the domain itself. */
export function hostLabel(name: string, domain: string): string {
  if (name === domain) return '@';
  return name.endsWith(`.${domain}`) ? name.slice(0, -(domain.length + 1)) : name;
}
