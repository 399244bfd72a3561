import type { DkimKey, Domain } from '@youju/contract';
import { Alert, Button, Descriptions, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { renderTime } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDkim } from '../api/get-dkim';
import { useRemoveDkimKey, useRotateDkim } from '../api/rotate-dkim';
import { hostLabel } from './dns-labels';

interface DkimDialogProps {
  domain: Domain;
  onClose: () => void;
}

/** The DKIM TXT record to publish, with copy buttons; key rotation and removal of retired keys. */
export function DkimDialog({ domain, onClose }: DkimDialogProps) {
  const dkimQuery = useDkim(domain.id);
  const rotate = useRotateDkim((data) =>
    showSuccessMessage(t('已生成新密钥，选择器 {selector}', { selector: data.selector })),
  );
  const remove = useRemoveDkimKey(() => showSuccessMessage(t('旧密钥已删除')));
  const dkim = dkimQuery.data;
  const hasEd25519 = dkim?.keys?.some((key) => key.algorithm === 'ed25519' && key.active) ?? false;

  return (
    <Modal
      open
      width={900}
      title={t('DKIM 记录：{displayName}', { displayName: domain.displayName })}
      onCancel={onClose}
      footer={
        <Space>
          <Popconfirm
            title={t('轮换 DKIM 密钥？')}
            description={t('将生成新的选择器并立即用它签名；旧密钥会保留发布，待新记录生效后再删除。')}
            okText={t('轮换')}
            cancelText={t('取消')}
            onConfirm={() => rotate.mutateAsync({ id: domain.id })}
          >
            <Button loading={rotate.isPending}>{t('轮换密钥')}</Button>
          </Popconfirm>
          {dkim && !hasEd25519 && (
            <Popconfirm
              title={t('添加 Ed25519 签名？')}
              description={t(
                '生成 Ed25519 密钥（RFC 8463）作为第二个选择器，与 RSA 同时签名。请把它的 TXT 记录也加入 DNS；不支持 Ed25519 的收件方仍按 RSA 验证。',
              )}
              okText={t('添加')}
              cancelText={t('取消')}
              onConfirm={() => rotate.mutateAsync({ id: domain.id, algorithm: 'ed25519' })}
            >
              <Button loading={rotate.isPending}>{t('添加 Ed25519 签名')}</Button>
            </Popconfirm>
          )}
          <Button type="primary" onClick={onClose}>
            {t('关闭')}
          </Button>
        </Space>
      }
    >
      {dkim && (
        <>
          <Alert
            style={{ marginBottom: 12 }}
            type="info"
            showIcon
            title={t('请在域名 {displayName} 的 DNS 解析中添加下面这条 TXT 记录', {
              displayName: domain.displayName,
            })}
          />
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('选择器')}>{dkim.selector}</Descriptions.Item>
            <Descriptions.Item label={t('记录类型')}>{dkim.record.type}</Descriptions.Item>
            <Descriptions.Item label={t('主机记录')}>
              <Typography.Text copyable={{ text: hostLabel(dkim.record.name, domain.name) }}>
                {hostLabel(dkim.record.name, domain.name)}
              </Typography.Text>
              <Typography.Text type="secondary">{t('（完整名称')} </Typography.Text>
              <Typography.Text copyable={{ text: dkim.record.name }} data-testid="dkim-record-name">
                {dkim.record.name}
              </Typography.Text>
              <Typography.Text type="secondary">{t('）')}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('记录值')}>
              <Typography.Paragraph
                copyable={{ text: dkim.record.value, tooltips: [t('复制记录值'), t('已复制')] }}
                style={{ marginBottom: 0, wordBreak: 'break-all' }}
                data-testid="dkim-record-value"
              >
                {dkim.record.value}
              </Typography.Paragraph>
            </Descriptions.Item>
          </Descriptions>
          {(dkim.keys?.length ?? 0) > 1 && (
            <Table<DkimKey>
              style={{ marginTop: 16 }}
              size="small"
              rowKey="selector"
              pagination={false}
              dataSource={dkim.keys}
              columns={[
                { title: t('选择器'), dataIndex: 'selector' },
                {
                  title: t('算法'),
                  dataIndex: 'algorithm',
                  render: (value: string) => (value === 'ed25519' ? 'Ed25519' : value.toUpperCase()),
                },
                {
                  title: t('记录值'),
                  key: 'record',
                  width: 260,
                  render: (_value, key) => (
                    <Typography.Text
                      copyable={{ text: key.record.value, tooltips: [t('复制记录值'), t('已复制')] }}
                      ellipsis={{ tooltip: key.record.value }}
                      style={{ maxWidth: 220 }}
                    >
                      {key.record.value}
                    </Typography.Text>
                  ),
                },
                {
                  title: t('状态'),
                  dataIndex: 'active',
                  render: (active: boolean) =>
                    active ? <Tag color="success">{t('签名中')}</Tag> : <Tag>{t('已停用（仍发布）')}</Tag>,
                },
                { title: t('创建时间'), dataIndex: 'createdAt', render: renderTime() },
                {
                  title: t('操作'),
                  key: 'actions',
                  render: (_value, key) =>
                    key.active ? null : (
                      <Popconfirm
                        title={t('删除旧密钥 {selector}？', { selector: key.selector })}
                        description={t(
                          '删除后请同时在 DNS 中删除它的 TXT 记录；用它签名的旧邮件将无法再验证。',
                        )}
                        okText={t('删除')}
                        cancelText={t('取消')}
                        okButtonProps={{ danger: true }}
                        onConfirm={() => remove.mutateAsync({ id: domain.id, selector: key.selector })}
                      >
                        <Button type="link" danger size="small">
                          {t('删除')}
                        </Button>
                      </Popconfirm>
                    ),
                },
              ]}
            />
          )}
        </>
      )}
    </Modal>
  );
}
