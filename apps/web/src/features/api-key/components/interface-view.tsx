import { Card, Typography } from 'antd';
import { t } from '../../../lib/i18n';
import { useApiKey } from '../api/api-key';
import { ApiKeyCard } from './api-key-card';
import { CurlExamples } from './curl-examples';

/** /user/interface: the API key and the open API as curl commands on the caller's domain. */
export function InterfaceView({ domain }: { domain?: string }) {
  const key = useApiKey().data;
  return (
    <>
      <ApiKeyCard />
      <Card title={t('调用示例')} style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary">
          {t('用上面的密钥放在请求头中调用开放接口，以你的账号身份创建地址、收取和删除邮件。')}
          {domain ? t('示例使用你的域名 {domain}。', { domain }) : t('添加域名后，示例会换成你的域名。')}
        </Typography.Paragraph>
        <CurlExamples
          baseUrl={window.location.origin}
          {...(domain ? { domain } : {})}
          {...(key && !key.masked ? { apiKey: key.key } : {})}
        />
      </Card>
    </>
  );
}
