import type { CreateCardBody, CreateCardData } from '@youju/contract';
import { Alert, Button, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useDomains } from '../../../api/get-domains';
import { copyText } from '../../../lib/clipboard';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
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
    showSuccessMessage(t('已生成 {count} 个卡密', { count: data.codes.length }));
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
      { onSuccess: (name) => showSuccessMessage(t('已导出 {name}', { name })) },
    );
  };

  const domainOptions = [
    { value: ANY_DOMAIN, label: t('任一开放注册的域名（兑换时选择）') },
    ...(domainsQuery.data ?? []).map((domain) => ({
      value: domain.id,
      label: domain.displayName ?? domain.name,
    })),
  ];

  return (
    <Modal
      open={open}
      title={created ? t('卡密已生成') : t('生成卡密')}
      onCancel={onClose}
      destroyOnHidden
      width={620}
      footer={
        created ? (
          <Button type="primary" onClick={onClose}>
            {t('完成')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('取消')}</Button>
            <Button type="primary" loading={createMutation.isPending} onClick={() => form.submit()}>
              {t('生成')}
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
            title={t('本批 {count} 个卡密，批次号 {batch}', {
              count: created.codes.length,
              batch: created.batchId ?? '',
            })}
          />
          <Input.TextArea
            aria-label={t('生成的卡密')}
            value={created.codes.join('\n')}
            readOnly
            autoSize={{ minRows: 4, maxRows: 12 }}
          />
          <Space wrap>
            <Button
              onClick={() =>
                copyText(created.codes.join('\n')).then(
                  () => showSuccessMessage(t('已复制全部卡密')),
                  () => showErrorMessage(t('复制失败，请手动选择文本复制')),
                )
              }
            >
              {t('复制全部')}
            </Button>
            <Button loading={exportMutation.isPending} onClick={() => exportAs('csv')}>
              {t('导出表格（CSV）')}
            </Button>
            <Button loading={exportMutation.isPending} onClick={() => exportAs('txt')}>
              {t('导出文本（TXT）')}
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
            label={t('数量')}
            rules={[{ required: true, message: t('请输入数量') }]}
            extra={t('每批 1 到 1000 个')}
          >
            <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="domainId" label={t('可兑换的域名')}>
            <Select options={domainOptions} loading={domainsQuery.isPending} />
          </Form.Item>
          <Form.Item
            name="validDays"
            label={t('有效天数')}
            rules={[{ required: true, message: t('请输入有效天数') }]}
            extra={t('新开邮箱的有效期，或为已有邮箱延长的天数')}
          >
            <InputNumber min={1} max={36500} precision={0} style={{ width: '100%' }} suffix={t('天')} />
          </Form.Item>
          <Form.Item name="quotaMb" label={t('邮箱容量（MB）')} extra={t('留空使用系统默认容量')}>
            <InputNumber
              min={0}
              max={1024 * 1024}
              precision={0}
              style={{ width: '100%' }}
              placeholder={t('默认')}
            />
          </Form.Item>
          <Form.Item name="note" label={t('备注')} rules={[{ max: 200, message: t('备注最多 200 字') }]}>
            <Input placeholder={t('可选，如“双十一活动”')} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
