import { Alert, DatePicker, Form, Modal, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useAddresses } from '../../../api/get-addresses';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDeleteTimeRange } from '../api/delete-time-range';

interface DeleteRangeDialogProps {
  /** a mailbox session's own address (it deletes only its own mail); null for system users */
  mailboxAddress: string | null;
  /** preselected address ('' = all) */
  address: string;
  onClose: () => void;
  onDeleted: () => void;
}

interface DeleteRangeValues {
  range?: [Dayjs, Dayjs];
  address?: string;
}

/** Deletes all mail received in a time range, of one address or of all. */
export function DeleteRangeDialog({ mailboxAddress, address, onClose, onDeleted }: DeleteRangeDialogProps) {
  const [form] = Form.useForm<DeleteRangeValues>();
  const addresses = useAddresses(mailboxAddress === null);
  const remove = useDeleteTimeRange((deleted) => {
    showSuccessMessage(
      deleted > 0 ? t('已删除 {count} 封邮件', { count: deleted }) : t('该时间段内没有邮件'),
    );
    onDeleted();
    onClose();
  });

  const submit = ({ range, address: chosen }: DeleteRangeValues) => {
    if (!range) return;
    remove.mutate({
      start: range[0].toISOString(),
      end: range[1].toISOString(),
      ...(chosen ? { address: chosen } : {}),
    });
  };

  return (
    <Modal
      open
      title={t('按时间删除邮件')}
      okText={t('删除')}
      cancelText={t('取消')}
      okButtonProps={{ danger: true, loading: remove.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<DeleteRangeValues>
        name="delete-range"
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ address }}
      >
        <Form.Item
          name="range"
          label={t('收信时间')}
          rules={[{ required: true, message: t('请选择开始和结束时间') }]}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
          />
        </Form.Item>
        {mailboxAddress ? (
          <Typography.Paragraph>
            {t('邮箱地址：')}
            <Typography.Text strong>{mailboxAddress}</Typography.Text>
          </Typography.Paragraph>
        ) : (
          <Form.Item name="address" label={t('邮箱地址')}>
            <Select
              options={[
                { value: '', label: t('全部地址') },
                ...(addresses.data ?? []).map((item) => ({ value: item.address, label: item.address })),
              ]}
            />
          </Form.Item>
        )}
        <Alert
          type="warning"
          showIcon
          title={t('删除后无法恢复')}
          description={t('这段时间内收到的邮件会被永久删除。')}
        />
      </Form>
    </Modal>
  );
}
