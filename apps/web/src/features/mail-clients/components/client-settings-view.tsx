import { AppleOutlined, DownloadOutlined } from '@ant-design/icons';
import type { ClientServer } from '@youju/contract';
import { Alert, Button, Card, Col, Descriptions, Row, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { downloadMobileConfig } from '../api/download-mobileconfig';
import { useClientSettings } from '../api/get-client-settings';

const protocolNames = (): Record<ClientServer['protocol'], string> => ({
  imap: t('IMAP（收信）'),
  pop3: t('POP3（收信）'),
  smtp: t('SMTP（发信）'),
});

const securityNames: Record<ClientServer['security'], string> = {
  SSL: 'SSL/TLS',
  STARTTLS: 'STARTTLS',
};

function Copyable({ text, label }: { text: string; label: string }) {
  return (
    <Typography.Text code copyable={{ text, tooltips: [t('复制{label}', { label }), t('已复制')] }}>
      {text}
    </Typography.Text>
  );
}

function ServerCard({ server }: { server: ClientServer }) {
  return (
    <Card
      size="small"
      title={protocolNames()[server.protocol]}
      data-testid={`server-${server.protocol}-${server.port}`}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('服务器')}>
          <Copyable text={server.hostname} label={t('服务器地址')} />
        </Descriptions.Item>
        <Descriptions.Item label={t('端口')}>
          <Copyable text={String(server.port)} label={t('端口')} />
        </Descriptions.Item>
        <Descriptions.Item label={t('加密方式')}>
          <Tag color={server.security === 'SSL' ? 'green' : 'blue'}>{securityNames[server.security]}</Tag>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

export interface ClientSettingsViewProps {
  /** the address shown; null for a mailbox session (its own address) */
  address: string | null;
  /** a system user's addresses to choose from; absent for a mailbox session */
  addresses?: string[];
  onAddressChange?: (address: string) => void;
}

/**
 * 客户端设置: what to type into Foxmail, Thunderbird, Outlook, Apple Mail or a phone's mail app for
 * one address (server, ports, security, user name), with copy buttons, the Apple profile download and
 * the autoconfiguration addresses.
 */
export function ClientSettingsView({ address, addresses, onAddressChange }: ClientSettingsViewProps) {
  const choosing = addresses !== undefined;
  const query = useClientSettings(address, !choosing || address !== null);
  const [downloading, setDownloading] = useState(false);
  const data = query.data;
  const origin = window.location.origin;

  const picker = choosing ? (
    <Select
      showSearch
      aria-label={t('选择邮箱地址')}
      placeholder={t('选择要在客户端中使用的邮箱地址')}
      style={{ width: '100%', maxWidth: 360 }}
      value={address ?? undefined}
      options={addresses.map((item) => ({ value: item, label: item }))}
      onChange={(value: string) => onAddressChange?.(value)}
      notFoundContent={t('还没有邮箱地址')}
    />
  ) : null;

  let body: ReactNode;
  if (choosing && address === null) {
    body = <Alert type="info" showIcon title={t('请先选择一个邮箱地址')} />;
  } else if (query.isPending) {
    body = <Skeleton active />;
  } else if (!data) {
    body = (
      <Alert type="error" showIcon title={query.error?.message || t('客户端设置加载失败，请刷新重试')} />
    );
  } else {
    const incoming = data.servers.filter((server) => server.protocol !== 'smtp');
    const outgoing = data.servers.filter((server) => server.protocol === 'smtp');
    body = (
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {data.canLogin ? null : (
          <Alert
            type="warning"
            showIcon
            title={t('这个地址还不能在邮件客户端登录')}
            description={t(
              '只有设置了密码的邮箱账号才能用客户端收发信：请在「邮箱账号」中为它设置密码，或使用已有密码的邮箱。',
            )}
          />
        )}
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('邮箱地址')}>
            <Copyable text={data.address} label={t('邮箱地址')} />
          </Descriptions.Item>
          <Descriptions.Item label={t('用户名')}>
            <Copyable text={data.username} label={t('用户名')} />
          </Descriptions.Item>
          <Descriptions.Item label={t('密码')}>{t('与网页登录邮箱时使用的密码相同')}</Descriptions.Item>
          <Descriptions.Item label={t('服务器')}>
            <Copyable text={data.hostname} label={t('服务器地址')} />
          </Descriptions.Item>
        </Descriptions>
        {data.servers.length === 0 ? (
          <Alert type="info" showIcon title={t('管理员尚未开启邮件客户端（IMAP、POP3、SMTP）端口')} />
        ) : (
          <>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('收信服务器')}
            </Typography.Title>
            <Row gutter={[12, 12]}>
              {incoming.map((server) => (
                <Col key={`${server.protocol}-${server.port}`} xs={24} md={12} xl={8}>
                  <ServerCard server={server} />
                </Col>
              ))}
            </Row>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('发信服务器（需要身份验证）')}
            </Typography.Title>
            <Row gutter={[12, 12]}>
              {outgoing.map((server) => (
                <Col key={`${server.protocol}-${server.port}`} xs={24} md={12} xl={8}>
                  <ServerCard server={server} />
                </Col>
              ))}
            </Row>
          </>
        )}
        <Card size="small" title={t('自动配置')}>
          <Space orientation="vertical" size="small" style={{ width: '100%' }}>
            <Button
              type="primary"
              icon={<AppleOutlined />}
              loading={downloading}
              disabled={data.servers.length === 0}
              onClick={async () => {
                setDownloading(true);
                try {
                  await downloadMobileConfig(data.address);
                  showSuccessMessage(t('描述文件已下载：在 iPhone/iPad 的“设置”或 Mac 的“系统设置”中安装'));
                } catch (error) {
                  showErrorMessage(error instanceof Error ? error.message : t('下载失败，请稍后再试'));
                } finally {
                  setDownloading(false);
                }
              }}
            >
              <DownloadOutlined /> {t('下载 Apple 描述文件')}
            </Button>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t('iPhone、iPad 与 Mac：下载后安装描述文件，安装时输入邮箱密码（文件中不含密码）。')}
            </Typography.Paragraph>
            <Typography.Paragraph style={{ margin: 0 }}>
              {t('Thunderbird：添加账户时填写邮箱地址和密码，会自动读取配置')}
              <Copyable text={`${origin}${data.autoconfigPath}`} label={t('自动配置地址')} />
            </Typography.Paragraph>
            <Typography.Paragraph style={{ margin: 0 }}>
              {t('Outlook：支持自动发现')}
              <Copyable text={`${origin}${data.autodiscoverPath}`} label={t('自动发现地址')} />
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t(
                '让客户端自动找到这些地址，需要把域名的 autoconfig 与 autodiscover 子域名解析到本服务器；否则按上面的服务器和端口手动填写即可。',
              )}
            </Typography.Paragraph>
          </Space>
        </Card>
      </Space>
    );
  }

  return (
    <Card title={t('客户端设置')} extra={null}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ margin: 0 }}>
          {t(
            '在 Foxmail、Thunderbird、Outlook、苹果邮件或手机邮件应用中使用邮箱：按下面的服务器、端口和加密方式填写，用户名是完整的邮箱地址。',
          )}
        </Typography.Paragraph>
        {picker}
        {body}
      </Space>
    </Card>
  );
}
