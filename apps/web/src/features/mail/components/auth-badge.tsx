import { CheckCircleFilled, QuestionCircleOutlined, WarningFilled } from '@ant-design/icons';
import type { MailAuth } from '@youju/contract';
import { Tag, Tooltip } from 'antd';
import { t, tc } from '../../../lib/i18n';

export type SenderTrust = 'verified' | 'unverified' | 'forged';

/**
 * The reader's verdict on the sender: verified when DMARC passed (the From domain is aligned with a
 * passing SPF or DKIM), forged when DMARC or SPF failed outright, otherwise not verified.
 */
export function senderTrust(auth: MailAuth): SenderTrust {
  if (auth.dmarc === 'pass') return 'verified';
  if (auth.dmarc === 'fail' || auth.spf === 'fail') return 'forged';
  return 'unverified';
}

/** A check's result in words (read at render, in the current language). */
function resultText(result: MailAuth['spf']): string {
  switch (result) {
    case 'pass':
      return t('通过');
    case 'fail':
      return tc('auth', '失败');
    case 'softfail':
      return t('软失败');
    case 'neutral':
      return t('中立');
    case 'none':
      return tc('auth', '无');
    case 'temperror':
      return t('临时错误');
    case 'permerror':
      return t('记录错误');
    default:
      return String(result);
  }
}

function policyText(policy: NonNullable<MailAuth['policy']>): string {
  switch (policy) {
    case 'none':
      return t('仅监测');
    case 'quarantine':
      return t('隔离');
    case 'reject':
      return tc('auth', '拒收');
  }
}

/** `result（domain）`, or the result alone without a domain. */
function withDomain(result: string, domain: string | null | undefined): string {
  return domain ? t('{result}（{domain}）', { result, domain }) : result;
}

function details(auth: MailAuth): string[] {
  const dkimDomains = auth.dkimDomains?.length ? auth.dkimDomains.join(t('、')) : null;
  const dmarc =
    auth.fromDomain && auth.policy
      ? t('{result}（{domain}，策略：{policy}）', {
          result: resultText(auth.dmarc),
          domain: auth.fromDomain,
          policy: policyText(auth.policy),
        })
      : withDomain(resultText(auth.dmarc), auth.fromDomain);
  return [
    t('SPF：{result}', { result: withDomain(resultText(auth.spf), auth.spfDomain) }),
    t('DKIM：{result}', { result: withDomain(resultText(auth.dkim), dkimDomains) }),
    t('DMARC：{result}', { result: dmarc }),
  ];
}

const LOOK = {
  verified: { color: 'success', icon: <CheckCircleFilled />, text: () => t('发件人已验证') },
  unverified: { color: 'default', icon: <QuestionCircleOutlined />, text: () => t('发件人未验证') },
  forged: { color: 'error', icon: <WarningFilled />, text: () => t('发件人可能是伪造的') },
} as const;

/** A badge beside the sender with the SPF, DKIM and DMARC results on hover (or tap). */
export function AuthBadge({ auth }: { auth: MailAuth }) {
  const trust = senderTrust(auth);
  const look = LOOK[trust];
  const unchecked = auth.spf === 'none' && auth.dkim === 'none' && auth.dmarc === 'none';
  const title = (
    <div data-testid="auth-details">
      {unchecked ? <div>{t('这封邮件没有经过发件人验证（站内投递，或验证功能启用前收到）')}</div> : null}
      {details(auth).map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  );
  return (
    <Tooltip title={title} trigger={['hover', 'click']}>
      <Tag
        color={look.color}
        icon={look.icon}
        data-testid="auth-badge"
        data-trust={trust}
        style={{ marginInlineStart: 8, cursor: 'help' }}
      >
        {look.text()}
      </Tag>
    </Tooltip>
  );
}
