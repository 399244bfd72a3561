import { CheckCircleFilled, CloseOutlined } from '@ant-design/icons';
import { Button, Card, Input, List, Space, Typography } from 'antd';
import { type CSSProperties, useState } from 'react';
import { Link } from 'react-router-dom';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { readStoredText, writeStoredText } from '../../../state/local-storage';
import { useGuide } from '../api/get-guide';
import { useSendTestMail } from '../api/send-test-mail';

/**
 * Dismissal is remembered in this browser's local storage (no password, nothing secret): a
 * returning administrator is not asked again here; another browser shows the card until it is
 * dismissed there too or every step is done (then it hides itself everywhere).
 */
const DISMISSED_KEY = 'guide-dismissed';

interface GuideCardProps {
  /** where each step is done */
  links: { domains: string; inbox: string };
  style?: CSSProperties;
}

/**
 * 开始使用: the first-run checklist of a system account — add a domain, pass its DNS check, send a
 * test mail, see mail arrive — each step ticked from the server's real state and linked to the
 * screen that does it. Hidden once every step is done or when dismissed.
 */
export function GuideCard({ links, style }: GuideCardProps) {
  const [dismissed, setDismissed] = useState(() => readStoredText(DISMISSED_KEY) === '1');
  const guide = useGuide(!dismissed);
  const [to, setTo] = useState('');
  const sendTest = useSendTestMail(() => showSuccessMessage(t('测试邮件已发出')));
  const state = guide.data;
  if (dismissed || !state) return null;
  const hasDomain = state.domains > 0;
  const done = [hasDomain, state.dnsReady, state.testMailSent, state.mailReceived];
  if (done.every(Boolean)) return null;
  const domain = state.firstDomain?.name;
  const sendTo = to.trim();

  const steps = [
    {
      title: t('添加域名'),
      description: t('添加你自己的邮件域名，系统会生成 DKIM 密钥'),
      action: <Link to={links.domains}>{t('去添加域名')}</Link>,
    },
    {
      title: t('配置 DNS'),
      description: t('按“DNS 记录”添加 MX、SPF、DKIM、DMARC 记录，然后点击检测，全部通过即完成'),
      action: <Link to={links.domains}>{t('去配置 DNS')}</Link>,
    },
    {
      title: t('发送测试邮件'),
      description: domain
        ? t('从 test@{domain} 发一封测试邮件（可发给本域名下的邮箱，或你的其他邮箱）', { domain })
        : t('先添加一个域名'),
      action: domain ? (
        <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
          <Input
            aria-label={t('测试邮件收件地址')}
            placeholder={t('收件地址，如 hello@{domain}', { domain })}
            value={to}
            onChange={(event) => setTo(event.target.value)}
          />
          <Button
            type="primary"
            disabled={!/^[^\s@]+@[^\s@]+$/.test(sendTo)}
            loading={sendTest.isPending}
            onClick={() => sendTest.mutate({ domain, to: sendTo })}
          >
            {t('发送测试邮件')}
          </Button>
        </Space.Compact>
      ) : null,
    },
    {
      title: t('收到邮件'),
      description: t('往本域名的邮箱发一封邮件（或把测试邮件发给它），在收件箱看到它即完成'),
      action: <Link to={links.inbox}>{t('去收件箱')}</Link>,
    },
  ];

  return (
    <Card
      title={t('开始使用')}
      style={style}
      data-testid="guide-card"
      extra={
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('不再显示')}
          onClick={() => {
            writeStoredText(DISMISSED_KEY, '1');
            setDismissed(true);
          }}
        >
          {t('不再显示')}
        </Button>
      }
    >
      <List
        dataSource={steps}
        renderItem={(step, index) => (
          <List.Item data-testid={`guide-step-${index + 1}`} data-done={done[index] ? 'true' : 'false'}>
            <Space align="start" style={{ width: '100%' }}>
              {done[index] ? (
                <CheckCircleFilled style={{ color: '#52c41a', fontSize: 20 }} aria-label={t('已完成')} />
              ) : (
                <Typography.Text
                  style={{
                    display: 'inline-block',
                    width: 20,
                    height: 20,
                    lineHeight: '18px',
                    textAlign: 'center',
                    border: '1px solid #d9d9d9',
                    borderRadius: 10,
                  }}
                >
                  {index + 1}
                </Typography.Text>
              )}
              <Space orientation="vertical" size={4} style={{ width: '100%' }}>
                <Typography.Text strong delete={done[index]}>
                  {step.title}
                </Typography.Text>
                <Typography.Text type="secondary">{step.description}</Typography.Text>
                {done[index] ? null : step.action}
              </Space>
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
