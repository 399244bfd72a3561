import { API_KEY_HEADER } from '@youju/contract';
import { Space, Typography } from 'antd';
import { t } from '../../../lib/i18n';

export interface CurlExamplesProps {
  /** where the service is reached, e.g. https://mail.example.com */
  baseUrl: string;
  /** a domain of the caller for the examples; a placeholder when unknown */
  domain?: string;
  /** the key, when it is on screen in full; a placeholder otherwise */
  apiKey?: string;
}

/** The open API calls (under /api/open, with the X-API-Key header) as copyable curl commands. */
export function curlExamples({ baseUrl, domain = t('你的域名'), apiKey = t('你的密钥') }: CurlExamplesProps) {
  const header = `-H "${API_KEY_HEADER}: ${apiKey}"`;
  const api = `${baseUrl}/api/open`;
  const address = `test@${domain}`;
  return [
    {
      title: t('创建邮箱地址（不传 localPart 则随机生成）'),
      command: `curl -X POST ${header} -H "Content-Type: application/json" -d '{"localPart":"test"}' ${api}/createEmail`,
    },
    {
      title: t('等待下一封邮件（最多 60 秒，超时返回 408）'),
      command: `curl ${header} "${api}/waitEmail?address=${address}&timeout=60"`,
    },
    {
      title: t('列出收到的邮件'),
      command: `curl ${header} "${api}/getInbox?address=${address}&page=1&pageSize=20"`,
    },
    { title: t('读取一封邮件'), command: `curl ${header} "${api}/getEmail?id=${t('邮件编号')}"` },
    {
      title: t('删除邮件'),
      command: `curl -X POST ${header} -H "Content-Type: application/json" -d '{"ids":[${t('邮件编号')}]}' ${api}/delEmail`,
    },
  ];
}

export function CurlExamples(props: CurlExamplesProps) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }} className="curl-examples">
      {curlExamples(props).map((example) => (
        <div key={example.title}>
          <Typography.Text strong>{example.title}</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: example.command, tooltips: [t('复制'), t('已复制')] }}
            style={{ marginBottom: 0 }}
          >
            <pre
              className="curl-command"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: '4px 0' }}
            >
              {example.command}
            </pre>
          </Typography.Paragraph>
        </div>
      ))}
      <Typography.Text type="secondary">
        {t('所有响应都是 {shape}：error 为 0 表示成功，否则 msg 说明原因。完整说明见', {
          shape: '{ error, msg, data }',
        })}
        <Typography.Link href="/api/openapi.json" target="_blank">
          {t('接口文档（OpenAPI）')}
        </Typography.Link>
        {t('。')}
      </Typography.Text>
    </Space>
  );
}
