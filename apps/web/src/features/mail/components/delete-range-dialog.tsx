import { Alert, DatePicker, Form, Modal, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useAddresses } from '../../../api/get-addresses';
import { showSuccessMessage } from '../../../lib/feedback';
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
    showSuccessMessage(deleted > 0 ? `已删除 ${deleted} 封邮件` : '该时间段内没有邮件');
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
      title="按时间删除邮件"
      okText="删除"
      cancelText="取消"
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
          label="收信时间"
          rules={[{ required: true, message: '请选择开始和结束时间' }]}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
          />
        </Form.Item>
        {mailboxAddress ? (
          <Typography.Paragraph>
            邮箱地址：<Typography.Text strong>{mailboxAddress}</Typography.Text>
          </Typography.Paragraph>
        ) : (
          <Form.Item name="address" label="邮箱地址">
            <Select
              options={[
                { value: '', label: '全部地址' },
                ...(addresses.data ?? []).map((item) => ({ value: item.address, label: item.address })),
              ]}
            />
          </Form.Item>
        )}
        <Alert
          type="warning"
          showIcon
          title="删除后无法恢复"
          description="这段时间内收到的邮件会被永久删除。"
        />
      </Form>
    </Modal>
  );
}
