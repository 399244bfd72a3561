import type { AddBlacklistQuery, BlacklistItem } from '@youju/contract';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  type TableProps,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { renderTime, TimeText } from '../../../components/time-text';
import { dayjs } from '../../../lib/dates';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { ApiError } from '../../../lib/http';
import { t } from '../../../lib/i18n';
import { useAddBlacklistIp, useBlacklist, useRemoveBlacklistIp } from '../api/blacklist';

/** Each source's name (in the current language, so built when called) and colour. */
const sourceNames = (): Record<BlacklistItem['source'], { text: string; color: string }> => ({
  manual: { text: t('手动添加'), color: 'blue' },
  login: { text: t('登录失败过多'), color: 'orange' },
  smtp: { text: t('SMTP 滥用'), color: 'purple' },
});

interface FormValues {
  ip: string;
  reason?: string;
  expiresAt?: Dayjs | null;
}

/** Loose check before the server's: digits, hex, dots, colons and one prefix length. */
const IP_PATTERN = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;

/** The IP blacklist (administrators): add an address or range with an optional expiry, remove. */
export function BlacklistCard() {
  const [modal, modalHolder] = Modal.useModal();
  const [form] = Form.useForm<FormValues>();
  const list = useBlacklist();
  const add = useAddBlacklistIp((entry) => {
    form.resetFields();
    showSuccessMessage(t('已封禁 {ip}', { ip: entry.ip }));
  });
  const remove = useRemoveBlacklistIp(() => showSuccessMessage(t('已解除封禁')));

  const submit = (values: FormValues, confirm = false) => {
    const query: AddBlacklistQuery = {
      ip: values.ip.trim(),
      ...(values.reason?.trim() ? { reason: values.reason.trim() } : {}),
      ...(values.expiresAt ? { expiresAt: values.expiresAt.toISOString() } : {}),
      ...(confirm ? { confirm: 1 } : {}),
    };
    add.mutate(query, {
      onError: (error) => {
        if (error instanceof ApiError && error.code === 409 && !confirm) {
          modal.confirm({
            title: t('确定要封禁自己的地址吗？'),
            content: error.message,
            okText: t('仍然封禁'),
            okButtonProps: { danger: true },
            cancelText: t('取消'),
            onOk: () => submit(values, true),
          });
        } else {
          showErrorMessage(error.message);
        }
      },
    });
  };

  const columns: TableProps<BlacklistItem>['columns'] = [
    {
      title: t('IP 地址或网段'),
      dataIndex: 'ip',
      render: (ip: string) => <Typography.Text code>{ip}</Typography.Text>,
    },
    {
      title: t('来源'),
      dataIndex: 'source',
      render: (source: BlacklistItem['source']) => (
        <Tag color={sourceNames()[source].color}>{sourceNames()[source].text}</Tag>
      ),
    },
    { title: t('原因'), dataIndex: 'reason' },
    { title: t('添加时间'), dataIndex: 'createdAt', render: renderTime() },
    {
      title: t('到期时间'),
      dataIndex: 'expiresAt',
      render: (value: string | null, item) => (
        <Space size={4}>
          <TimeText value={value} fallback={t('永久')} />
          {item.active ? null : <Tag>{t('已过期')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('操作'),
      key: 'actions',
      render: (_value, item) => (
        <Popconfirm
          title={t('解除对 {ip} 的封禁？', { ip: item.ip })}
          okText={t('解除')}
          cancelText={t('取消')}
          onConfirm={() => remove.mutate(item.ip)}
        >
          <Button type="link" size="small" loading={remove.isPending && remove.variables === item.ip}>
            {t('解除')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card title={t('IP 黑名单')}>
      {modalHolder}
      <Typography.Paragraph type="secondary">
        {t(
          '名单中的地址访问网页和接口时得到 403，连接 SMTP 时得到 554。可填写单个 IPv4/IPv6 地址或 CIDR 网段（如 203.0.113.0/24、2001:db8::/32）；登录失败过多和 SMTP 滥用的地址会被自动加入并按时解除。',
        )}
      </Typography.Paragraph>
      <Form<FormValues>
        form={form}
        layout="inline"
        name="blacklist-form"
        onFinish={(values) => submit(values)}
      >
        <Form.Item
          name="ip"
          label={t('IP 地址')}
          rules={[
            { required: true, message: t('请输入 IP 地址或网段') },
            { pattern: IP_PATTERN, message: t('IP 地址或网段格式不正确') },
          ]}
        >
          <Input placeholder={t('例如 203.0.113.7 或 203.0.113.0/24')} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="reason" label={t('原因')} rules={[{ max: 200, message: t('原因最多 200 个字符') }]}>
          <Input placeholder={t('可不填')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('到期时间')}>
          <DatePicker
            showTime
            placeholder={t('不填则永久')}
            disabledDate={(date) => date.isBefore(dayjs().startOf('day'))}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            {t('加入黑名单')}
          </Button>
        </Form.Item>
      </Form>
      <Table<BlacklistItem>
        style={{ marginTop: 16 }}
        rowKey="ip"
        size="small"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isPending}
        scroll={{ x: true }}
        pagination={{
          pageSize: 20,
          hideOnSinglePage: true,
          showTotal: (total) => t('共 {total} 条', { total }),
        }}
        locale={{ emptyText: t('黑名单为空') }}
      />
    </Card>
  );
}
