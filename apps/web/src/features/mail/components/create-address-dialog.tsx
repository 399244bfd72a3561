import type { CreatedAddress, CreateEmailBody } from '@youju/contract';
import { Empty, Form, Input, Modal, Select } from 'antd';
import { useDomains } from '../../../api/get-domains';
import { rules } from '../../../config/validation';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useCreateAddress } from '../api/create-address';

interface CreateAddressDialogProps {
  onClose: () => void;
  onCreated: (created: CreatedAddress) => void;
}

interface CreateAddressValues {
  domainId?: number;
  localPart?: string;
}

/** A new temporary address on one of the caller's domains; an empty local part gets a random one. */
export function CreateAddressDialog({ onClose, onCreated }: CreateAddressDialogProps) {
  const [form] = Form.useForm<CreateAddressValues>();
  const domainsQuery = useDomains();
  const domains = domainsQuery.data ?? [];
  const domainId = Form.useWatch('domainId', form);
  const domainName = domains.find((domain) => domain.id === domainId)?.name;
  const create = useCreateAddress((created) => {
    showSuccessMessage(t('已创建地址 {address}', { address: created.address }));
    onCreated(created);
    onClose();
  });

  const submit = (values: CreateAddressValues) => {
    const body: CreateEmailBody = { domainId: values.domainId as number };
    const localPart = values.localPart?.trim();
    if (localPart) body.localPart = localPart;
    create.mutate(body);
  };

  return (
    <Modal
      open
      title={t('新建邮箱地址')}
      okText={t('创建')}
      cancelText={t('取消')}
      okButtonProps={{ loading: create.isPending, disabled: domainsQuery.isSuccess && domains.length === 0 }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {domainsQuery.isSuccess && domains.length === 0 ? (
        <Empty description={t('你还没有域名，请先在“域名管理”中添加域名。')} />
      ) : (
        <Form<CreateAddressValues>
          name="create-address"
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ domainId: domains[0]?.id }}
        >
          <Form.Item name="domainId" label={t('域名')} rules={[{ required: true, message: t('请选择域名') }]}>
            <Select
              placeholder={t('选择域名')}
              loading={domainsQuery.isPending}
              options={domains.map((domain) => ({
                value: domain.id,
                label: domain.displayName || domain.name,
              }))}
              notFoundContent={t('暂无域名')}
            />
          </Form.Item>
          <Form.Item
            name="localPart"
            label={t('邮箱前缀')}
            rules={rules.optionalLocalPart}
            extra={t('留空则随机生成')}
          >
            <Input placeholder={t('例如 notice')} suffix={domainName ? `@${domainName}` : undefined} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
