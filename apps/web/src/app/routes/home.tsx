import CloudServerOutlinedSvg from '@ant-design/icons-svg/es/asn/CloudServerOutlined';
import SafetyOutlinedSvg from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import ThunderboltOutlinedSvg from '@ant-design/icons-svg/es/asn/ThunderboltOutlined';
import { useQueryClient } from '@tanstack/react-query';
import type { RegEmailData } from '@youju/contract';
import { Link, useNavigate } from 'react-router-dom';
import { Panel } from '../../components/panel';
import { PlainButton } from '../../components/plain/button';
import { plainIcon } from '../../components/plain/icon';
import { PlainSpace } from '../../components/plain/space';
import { Heading, Paragraph } from '../../components/text';
import { siteNameShown } from '../../config/constants';
import { paths } from '../../config/routes';
import { TemporaryMailboxCard } from '../../features/temporary-mailbox/components/temporary-mailbox-card';
import { formatTime } from '../../lib/dates';
import { showSuccessMessage } from '../../lib/feedback';
import { t } from '../../lib/i18n';
import { refreshVariables } from '../../lib/variables';
import { forgetCredential, rememberCredential } from '../../state/credential';
import { saveToken, useSessionStore } from '../../state/session';
import { useSettingsStore } from '../../state/settings';

const CloudServerOutlined = plainIcon(CloudServerOutlinedSvg);
const SafetyOutlined = plainIcon(SafetyOutlinedSvg);
const ThunderboltOutlined = plainIcon(ThunderboltOutlinedSvg);

/** What the service offers, in the current language (built at render, never at import). */
const highlights = () => [
  {
    icon: ThunderboltOutlined,
    title: t('临时邮箱'),
    text: t(
      '在开放注册的域名上一键得到一个临时邮箱和它的凭证，用来接收验证码等邮件，退出后凭证可以找回邮箱。',
    ),
  },
  {
    icon: CloudServerOutlined,
    title: t('托管邮箱'),
    text: t('系统账号可以管理自己的域名和邮箱账号，邮件保存在本站服务器上。'),
  },
  {
    icon: SafetyOutlined,
    title: t('自托管'),
    text: t('整套服务运行在站点自己的服务器上，邮件原文完整保存，不经第三方平台。'),
  },
];

/**
 * Home: what the service is, the one-click temporary mailbox, and the way in. Drawn without antd's
 * runtime (components/plain; antd's frame is not around it: app/router.tsx), since it is the first
 * page of most visits.
 */
export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const settings = useSettingsStore((state) => state.settings);
  const loggedIn = useSessionStore((state) => state.token !== null);
  const siteName = siteNameShown(settings.siteName);
  const defaultDomainId = typeof settings.defaultDomainId === 'number' ? settings.defaultDomainId : null;

  // The temporary mailbox is a new session, entered exactly as a login is (see routes/auth.tsx).
  const enterTemporaryMailbox = async (data: RegEmailData) => {
    saveToken(data.token);
    // Its credential shows once, in a dialog over the inbox (user layout's CredentialDialog).
    if (data.credential) rememberCredential(data.email, data.credential);
    else forgetCredential();
    queryClient.clear();
    await refreshVariables();
    showSuccessMessage(
      data.expiresAt
        ? t('临时邮箱 {email} 已就绪，有效期至 {time}', {
            email: data.email,
            time: formatTime(data.expiresAt),
          })
        : t('临时邮箱 {email} 已就绪', { email: data.email }),
    );
    await navigate(`${paths.user}/inbox`);
  };

  return (
    <PlainSpace vertical size="large" style={{ width: '100%' }}>
      <Panel>
        <Heading level={1}>{siteName}</Heading>
        <Paragraph style={{ fontSize: 16 }}>
          {t('自托管的临时邮箱与托管邮箱服务：注册一个邮箱即可收信，系统账号还可以管理自己的域名和邮箱。')}
        </Paragraph>
        {settings.mailDomains && settings.mailDomains.length > 0 ? (
          <Paragraph secondary>
            {t('本站邮箱域名：{domains}', { domains: settings.mailDomains.join(t('、')) })}
          </Paragraph>
        ) : null}
        <Link to={loggedIn ? paths.user : paths.auth}>
          <PlainButton type="primary" size="large">
            {loggedIn ? t('进入邮箱') : t('注册 / 登录')}
          </PlainButton>
        </Link>
      </Panel>
      <TemporaryMailboxCard
        registrationOpen={settings.registrationOpen}
        defaultDomainId={defaultDomainId}
        loggedIn={loggedIn}
        onCreated={enterTemporaryMailbox}
      />
      <div className="home-highlights">
        {highlights().map((item) => (
          <Panel key={item.title}>
            <Heading level={4} style={{ marginTop: 0 }}>
              <item.icon /> {item.title}
            </Heading>
            <Paragraph secondary style={{ marginBottom: 0 }}>
              {item.text}
            </Paragraph>
          </Panel>
        ))}
      </div>
    </PlainSpace>
  );
}
