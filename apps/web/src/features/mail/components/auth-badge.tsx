import { CheckCircleFilled, QuestionCircleOutlined, WarningFilled } from '@ant-design/icons';
import type { MailAuth } from '@youju/contract';
import { Tag, Tooltip } from 'antd';

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

const RESULT_TEXT: Record<MailAuth['spf'], string> = {
  pass: '通过',
  fail: '失败',
  softfail: '软失败',
  neutral: '中立',
  none: '无',
  temperror: '临时错误',
  permerror: '记录错误',
};

const POLICY_TEXT = { none: '仅监测', quarantine: '隔离', reject: '拒收' } as const;

function details(auth: MailAuth): string[] {
  const dkimDomains = auth.dkimDomains?.length ? `（${auth.dkimDomains.join('、')}）` : '';
  const lines = [
    `SPF：${RESULT_TEXT[auth.spf]}${auth.spfDomain ? `（${auth.spfDomain}）` : ''}`,
    `DKIM：${RESULT_TEXT[auth.dkim]}${dkimDomains}`,
    `DMARC：${RESULT_TEXT[auth.dmarc]}${auth.fromDomain ? `（${auth.fromDomain}` : ''}${
      auth.fromDomain && auth.policy ? `，策略：${POLICY_TEXT[auth.policy]}）` : auth.fromDomain ? '）' : ''
    }`,
  ];
  return lines;
}

const LOOK = {
  verified: { color: 'success', icon: <CheckCircleFilled />, text: '发件人已验证' },
  unverified: { color: 'default', icon: <QuestionCircleOutlined />, text: '发件人未验证' },
  forged: { color: 'error', icon: <WarningFilled />, text: '发件人可能是伪造的' },
} as const;

/** A badge beside the sender with the SPF, DKIM and DMARC results on hover (or tap). */
export function AuthBadge({ auth }: { auth: MailAuth }) {
  const trust = senderTrust(auth);
  const look = LOOK[trust];
  const unchecked = auth.spf === 'none' && auth.dkim === 'none' && auth.dmarc === 'none';
  const title = (
    <div data-testid="auth-details">
      {unchecked ? <div>这封邮件没有经过发件人验证（站内投递，或验证功能启用前收到）</div> : null}
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
        {look.text}
      </Tag>
    </Tooltip>
  );
}
