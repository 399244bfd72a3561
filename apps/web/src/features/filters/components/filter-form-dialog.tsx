import type { NewFilter } from '@youju/contract';
import { Alert, Form, Input, Modal, Select, Switch, Typography } from 'antd';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useAddFilter } from '../api/add-filter';
import { actionHelp, actionLabels, fieldLabels, matchLabels, optionsOf } from './filter-labels';

interface FilterFormDialogProps {
  onClose: () => void;
}

const initialValues: NewFilter = {
  field: 'subject',
  match: 'contains',
  value: '',
  action: 'spam',
  enabled: true,
};

/** 添加规则: field, how to match, the text or pattern, what to do, enabled. */
export function FilterFormDialog({ onClose }: FilterFormDialogProps) {
  const [form] = Form.useForm<NewFilter>();
  const match = Form.useWatch('match', form);
  const action = Form.useWatch('action', form) ?? initialValues.action;
  const add = useAddFilter(() => {
    showSuccessMessage(t('已添加过滤规则'));
    onClose();
  });

  return (
    <Modal
      open
      title={t('添加过滤规则')}
      okText={t('添加')}
      cancelText={t('取消')}
      okButtonProps={{ loading: add.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<NewFilter>
        name="add-filter"
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onValuesChange={() => add.reset()}
        onFinish={(values) => add.mutate({ ...values, value: values.value.trim() })}
      >
        <Form.Item
          name="field"
          label={t('匹配字段')}
          rules={[{ required: true, message: t('请选择匹配字段') }]}
        >
          <Select options={optionsOf(fieldLabels())} />
        </Form.Item>
        <Form.Item
          name="match"
          label={t('匹配方式')}
          rules={[{ required: true, message: t('请选择匹配方式') }]}
        >
          <Select options={optionsOf(matchLabels())} />
        </Form.Item>
        <Form.Item
          name="value"
          label={match === 'regex' ? t('正则表达式') : t('匹配内容')}
          extra={match === 'regex' ? t('例如 ^促销|优惠券$，不区分大小写') : t('不区分大小写')}
          rules={[
            { required: true, whitespace: true, message: t('请输入匹配内容') },
            { max: 500, message: t('匹配内容最多 500 个字符') },
          ]}
        >
          <Input placeholder={match === 'regex' ? t('正则表达式') : t('例如 广告')} />
        </Form.Item>
        <Form.Item
          name="action"
          label={t('处理方式')}
          rules={[{ required: true, message: t('请选择处理方式') }]}
        >
          <Select options={optionsOf(actionLabels())} />
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
          {actionHelp()[action]}
        </Typography.Paragraph>
        <Form.Item name="enabled" label={t('启用')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {add.isError ? (
          <Alert
            type="error"
            showIcon
            title={t('规则未添加')}
            description={add.error.message}
            data-testid="filter-error"
          />
        ) : null}
      </Form>
    </Modal>
  );
}
