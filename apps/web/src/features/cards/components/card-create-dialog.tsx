import type { CreateCardBody, CreateCardData } from '@youju/contract';
import { Alert, Button, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useDomains } from '../../../api/get-domains';
import { copyText } from '../../../lib/clipboard';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { useCreateCards } from '../api/create-cards';
import { useExportCardBatch } from '../api/export-card-batch';

interface FormValues {
  count: number;
  domainId?: number;
  validDays: number;
  quotaMb?: number | null;
  note?: string;
}

const ANY_DOMAIN = 0;

/** Generates a batch of codes, then shows them for copying and export. */
export function CardCreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const [created, setCreated] = useState<CreateCardData | null>(null);
  const domainsQuery = useDomains(open);
  const createMutation = useCreateCards((data) => {
    setCreated(data);
    showSuccessMessage(`已生成 ${data.codes.length} 个卡密`);
  });
  const exportMutation = useExportCardBatch();

  const submit = (values: FormValues) => {
    const body: CreateCardBody = {
      count: values.count,
      validDays: values.validDays,
      note: values.note ?? '',
      ...(values.domainId && values.domainId !== ANY_DOMAIN ? { domainId: values.domainId } : {}),
      ...(values.quotaMb ? { quotaBytes: Math.round(values.quotaMb * 1024 * 1024) } : {}),
    };
    createMutation.mutate(body);
  };

  const exportAs = (format: 'csv' | 'txt') => {
    if (!created?.batchId) return;
    exportMutation.mutate(
      { batchId: created.batchId, format },
      { onSuccess: (name) => showSuccessMessage(`已导出 ${name}`) },
    );
  };

  const domainOptions = [
    { value: ANY_DOMAIN, label: '任一开放注册的域名（兑换时选择）' },
    ...(domainsQuery.data ?? []).map((domain) => ({
      value: domain.id,
      label: domain.displayName ?? domain.name,
    })),
  ];

  return (
    <Modal
      open={open}
      title={created ? '卡密已生成' : '生成卡密'}
      onCancel={onClose}
      destroyOnHidden
      width={620}
      footer={
        created ? (
          <Button type="primary" onClick={onClose}>
            完成
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" loading={createMutation.isPending} onClick={() => form.submit()}>
              生成
            </Button>
          </Space>
        )
      }
    >
      {created ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert
            type="success"
            showIcon
            title={`本批 ${created.codes.length} 个卡密，批次号 ${created.batchId ?? ''}`}
          />
          <Input.TextArea
            aria-label="生成的卡密"
            value={created.codes.join('\n')}
            readOnly
            autoSize={{ minRows: 4, maxRows: 12 }}
          />
          <Space wrap>
            <Button
              onClick={() =>
                copyText(created.codes.join('\n')).then(
                  () => showSuccessMessage('已复制全部卡密'),
                  () => showErrorMessage('复制失败，请手动选择文本复制'),
                )
              }
            >
              复制全部
            </Button>
            <Button loading={exportMutation.isPending} onClick={() => exportAs('csv')}>
              导出表格（CSV）
            </Button>
            <Button loading={exportMutation.isPending} onClick={() => exportAs('txt')}>
              导出文本（TXT）
            </Button>
          </Space>
        </Space>
      ) : (
        <Form<FormValues>
          form={form}
          layout="vertical"
          name="card-create-form"
          initialValues={{ count: 10, validDays: 30, domainId: ANY_DOMAIN, quotaMb: null, note: '' }}
          onFinish={submit}
        >
          <Form.Item
            name="count"
            label="数量"
            rules={[{ required: true, message: '请输入数量' }]}
            extra="每批 1 到 1000 个"
          >
            <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="domainId" label="可兑换的域名">
            <Select options={domainOptions} loading={domainsQuery.isPending} />
          </Form.Item>
          <Form.Item
            name="validDays"
            label="有效天数"
            rules={[{ required: true, message: '请输入有效天数' }]}
            extra="新开邮箱的有效期，或为已有邮箱延长的天数"
          >
            <InputNumber min={1} max={36500} precision={0} style={{ width: '100%' }} suffix="天" />
          </Form.Item>
          <Form.Item name="quotaMb" label="邮箱容量（MB）" extra="留空使用系统默认容量">
            <InputNumber
              min={0}
              max={1024 * 1024}
              precision={0}
              style={{ width: '100%' }}
              placeholder="默认"
            />
          </Form.Item>
          <Form.Item name="note" label="备注" rules={[{ max: 200, message: '备注最多 200 字' }]}>
            <Input placeholder="可选，如“双十一活动”" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
