import type { DkimKey, Domain } from '@youju/contract';
import { Alert, Button, Descriptions, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { renderTime } from '../../../components/time-text';
import { showSuccessMessage } from '../../../lib/feedback';
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
  const rotate = useRotateDkim((data) => showSuccessMessage(`已生成新密钥，选择器 ${data.selector}`));
  const remove = useRemoveDkimKey(() => showSuccessMessage('旧密钥已删除'));
  const dkim = dkimQuery.data;
  const hasEd25519 = dkim?.keys?.some((key) => key.algorithm === 'ed25519' && key.active) ?? false;

  return (
    <Modal
      open
      width={900}
      title={`DKIM 记录：${domain.displayName}`}
      onCancel={onClose}
      footer={
        <Space>
          <Popconfirm
            title="轮换 DKIM 密钥？"
            description="将生成新的选择器并立即用它签名；旧密钥会保留发布，待新记录生效后再删除。"
            okText="轮换"
            cancelText="取消"
            onConfirm={() => rotate.mutateAsync({ id: domain.id })}
          >
            <Button loading={rotate.isPending}>轮换密钥</Button>
          </Popconfirm>
          {dkim && !hasEd25519 && (
            <Popconfirm
              title="添加 Ed25519 签名？"
              description="生成 Ed25519 密钥（RFC 8463）作为第二个选择器，与 RSA 同时签名。请把它的 TXT 记录也加入 DNS；不支持 Ed25519 的收件方仍按 RSA 验证。"
              okText="添加"
              cancelText="取消"
              onConfirm={() => rotate.mutateAsync({ id: domain.id, algorithm: 'ed25519' })}
            >
              <Button loading={rotate.isPending}>添加 Ed25519 签名</Button>
            </Popconfirm>
          )}
          <Button type="primary" onClick={onClose}>
            关闭
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
            title={`请在域名 ${domain.displayName} 的 DNS 解析中添加下面这条 TXT 记录`}
          />
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="选择器">{dkim.selector}</Descriptions.Item>
            <Descriptions.Item label="记录类型">{dkim.record.type}</Descriptions.Item>
            <Descriptions.Item label="主机记录">
              <Typography.Text copyable={{ text: hostLabel(dkim.record.name, domain.name) }}>
                {hostLabel(dkim.record.name, domain.name)}
              </Typography.Text>
              <Typography.Text type="secondary">（完整名称 </Typography.Text>
              <Typography.Text copyable={{ text: dkim.record.name }} data-testid="dkim-record-name">
                {dkim.record.name}
              </Typography.Text>
              <Typography.Text type="secondary">）</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="记录值">
              <Typography.Paragraph
                copyable={{ text: dkim.record.value, tooltips: ['复制记录值', '已复制'] }}
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
                { title: '选择器', dataIndex: 'selector' },
                {
                  title: '算法',
                  dataIndex: 'algorithm',
                  render: (value: string) => (value === 'ed25519' ? 'Ed25519' : value.toUpperCase()),
                },
                {
                  title: '记录值',
                  key: 'record',
                  width: 260,
                  render: (_value, key) => (
                    <Typography.Text
                      copyable={{ text: key.record.value, tooltips: ['复制记录值', '已复制'] }}
                      ellipsis={{ tooltip: key.record.value }}
                      style={{ maxWidth: 220 }}
                    >
                      {key.record.value}
                    </Typography.Text>
                  ),
                },
                {
                  title: '状态',
                  dataIndex: 'active',
                  render: (active: boolean) =>
                    active ? <Tag color="success">签名中</Tag> : <Tag>已停用（仍发布）</Tag>,
                },
                { title: '创建时间', dataIndex: 'createdAt', render: renderTime() },
                {
                  title: '操作',
                  key: 'actions',
                  render: (_value, key) =>
                    key.active ? null : (
                      <Popconfirm
                        title={`删除旧密钥 ${key.selector}？`}
                        description="删除后请同时在 DNS 中删除它的 TXT 记录；用它签名的旧邮件将无法再验证。"
                        okText="删除"
                        cancelText="取消"
                        okButtonProps={{ danger: true }}
                        onConfirm={() => remove.mutateAsync({ id: domain.id, selector: key.selector })}
                      >
                        <Button type="link" danger size="small">
                          删除
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
