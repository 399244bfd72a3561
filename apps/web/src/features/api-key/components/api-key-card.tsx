import { Alert, Button, Card, Descriptions, Popconfirm, Skeleton, Typography } from 'antd';
import { TimeText } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useApiKey, useRefreshApiKey } from '../api/api-key';

/**
 * The caller's API key: shown in full once (right after it is made or refreshed), masked otherwise;
 * refreshing asks first, because the old key stops working at once.
 */
export function ApiKeyCard() {
  const query = useApiKey();
  const refresh = useRefreshApiKey(() => showSuccessMessage(t('已生成新密钥，旧密钥已失效')));
  const data = query.data;
  if (query.isPending) return <Skeleton active />;
  if (!data) return <Alert type="error" showIcon title={t('密钥加载失败，请刷新重试')} />;

  return (
    <Card
      title={t('API 密钥')}
      extra={
        <Popconfirm
          title={t('重置 API 密钥？')}
          description={t('旧密钥会立即失效，使用它的脚本需要换成新密钥。')}
          okText={t('重置')}
          cancelText={t('取消')}
          okButtonProps={{ danger: true }}
          onConfirm={() => refresh.mutate()}
        >
          <Button danger loading={refresh.isPending}>
            {t('重置密钥')}
          </Button>
        </Popconfirm>
      }
    >
      {data.masked ? null : (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('请立即复制并妥善保存密钥')}
          description={t('完整密钥只显示这一次，离开或刷新页面后只能看到打码后的密钥；忘记了可以重置。')}
        />
      )}
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('密钥')}>
          <Typography.Text
            code
            className="api-key-value"
            copyable={data.masked ? false : { text: data.key, tooltips: [t('复制密钥'), t('已复制')] }}
          >
            {data.key}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('创建时间')}>
          <TimeText value={data.createdAt} />
        </Descriptions.Item>
        <Descriptions.Item label={t('最近使用')}>
          <TimeText value={data.lastUsedAt} fallback={t('尚未使用')} />
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
