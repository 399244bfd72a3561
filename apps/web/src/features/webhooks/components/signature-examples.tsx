import { Tabs, Typography } from 'antd';
import { t } from '../../../lib/i18n';

// Built when shown (never at import), so that their comments are in the current language.
const nodeExample = () =>
  [
    "import { createHmac, timingSafeEqual } from 'node:crypto';",
    '',
    `// ${t('body 必须是收到的原始字节（不要先解析再序列化）')}`,
    'function verifyYouju(secret, headers, body) {',
    "  const timestamp = headers['x-youju-timestamp'];",
    "  const expected = 'sha256=' + createHmac('sha256', secret)",
    `    .update(\`\${timestamp}.\${body}\`).digest('hex');`,
    "  const given = String(headers['x-youju-signature'] ?? '');",
    `  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300; // ${t('5 分钟内')}`,
    '  return fresh && given.length === expected.length',
    '    && timingSafeEqual(Buffer.from(given), Buffer.from(expected));',
    '}',
  ].join('\n');

const pythonExample = () =>
  [
    'import hashlib, hmac, time',
    '',
    `# ${t('body 是收到的原始字节（bytes），headers 是请求头')}`,
    'def verify_youju(secret: str, headers, body: bytes) -> bool:',
    '    timestamp = headers["X-Youju-Timestamp"]',
    '    expected = "sha256=" + hmac.new(',
    '        secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256',
    '    ).hexdigest()',
    `    fresh = abs(time.time() - int(timestamp)) < 300  # ${t('5 分钟内')}`,
    '    return fresh and hmac.compare_digest(headers.get("X-Youju-Signature", ""), expected)',
  ].join('\n');

/** How a receiver checks X-Youju-Signature, in Node and Python (the OpenAPI description says the same). */
export function SignatureExamples() {
  const node = nodeExample();
  const python = pythonExample();
  return (
    <div className="webhook-signature-help">
      <Typography.Paragraph type="secondary">
        {t('每次推送都是 POST JSON，请求头带')} <Typography.Text code>X-Youju-Event</Typography.Text>
        {t('、')}
        <Typography.Text code>X-Youju-Delivery</Typography.Text>
        {t('（同一次投递重试时不变，可用来去重）、')}
        <Typography.Text code>X-Youju-Timestamp</Typography.Text>
        {t('（秒）和')}
        <Typography.Text code>X-Youju-Signature</Typography.Text>
        {t(
          '：用签名密钥对“时间戳.请求体”计算 HMAC-SHA256，格式为 sha256=十六进制。返回 2xx 表示收到；其他状态或 10 秒无响应会在 1 分钟内重试，之后间隔逐步加倍，24 小时后放弃。',
        )}
      </Typography.Paragraph>
      <Tabs
        size="small"
        items={[
          {
            key: 'node',
            label: 'Node.js',
            children: (
              <Typography.Paragraph copyable={{ text: node, tooltips: [t('复制代码'), t('已复制')] }}>
                <pre className="webhook-code">{node}</pre>
              </Typography.Paragraph>
            ),
          },
          {
            key: 'python',
            label: 'Python',
            children: (
              <Typography.Paragraph copyable={{ text: python, tooltips: [t('复制代码'), t('已复制')] }}>
                <pre className="webhook-code">{python}</pre>
              </Typography.Paragraph>
            ),
          },
        ]}
      />
    </div>
  );
}
