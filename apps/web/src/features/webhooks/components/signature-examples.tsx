import { Tabs, Typography } from 'antd';
import { t } from '../../../lib/i18n';

const NODE_EXAMPLE = t(
  "import { createHmac, timingSafeEqual } from 'node:crypto';\n\n// body 必须是收到的原始字节（不要先解析再序列化）\nfunction verifyYouju(secret, headers, body) {\n  const timestamp = headers['x-youju-timestamp'];\n  const expected = 'sha256=' + createHmac('sha256', secret)\n    .update(`${timestamp}.${body}`).digest('hex');\n  const given = String(headers['x-youju-signature'] ?? '');\n  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300; // 5 分钟内\n  return fresh && given.length === expected.length\n    && timingSafeEqual(Buffer.from(given), Buffer.from(expected));\n}",
);

const PYTHON_EXAMPLE = t(
  'import hashlib, hmac, time\n\n# body 是收到的原始字节（bytes），headers 是请求头\ndef verify_youju(secret: str, headers, body: bytes) -> bool:\n    timestamp = headers["X-Youju-Timestamp"]\n    expected = "sha256=" + hmac.new(\n        secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256\n    ).hexdigest()\n    fresh = abs(time.time() - int(timestamp)) < 300  # 5 分钟内\n    return fresh and hmac.compare_digest(headers.get("X-Youju-Signature", ""), expected)',
);

/** How a receiver checks X-Youju-Signature, in Node and Python (the OpenAPI description says the same). */
export function SignatureExamples() {
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
              <Typography.Paragraph copyable={{ text: NODE_EXAMPLE, tooltips: [t('复制代码'), t('已复制')] }}>
                <pre className="webhook-code">{NODE_EXAMPLE}</pre>
              </Typography.Paragraph>
            ),
          },
          {
            key: 'python',
            label: 'Python',
            children: (
              <Typography.Paragraph
                copyable={{ text: PYTHON_EXAMPLE, tooltips: [t('复制代码'), t('已复制')] }}
              >
                <pre className="webhook-code">{PYTHON_EXAMPLE}</pre>
              </Typography.Paragraph>
            ),
          },
        ]}
      />
    </div>
  );
}
