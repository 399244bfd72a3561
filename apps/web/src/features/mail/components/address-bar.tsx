import { CheckCircleOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Popconfirm, Select, Space, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useAddresses } from '../../../api/get-addresses';
import { showErrorMessage, showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDeleteAddress } from '../api/delete-address';
import { useUnread } from '../api/get-unread';
import { useMarkAllRead } from '../api/mark-all-read';

/** The dialog (a form) is fetched when it is first asked for. */
const CreateAddressDialog = lazy(() =>
  import('./create-address-dialog').then((module) => ({ default: module.CreateAddressDialog })),
);

interface AddressBarProps {
  /** a mailbox session's own address; null for system users, who pick among their addresses */
  mailboxAddress: string | null;
  /** the address whose mail is shown; '' = all */
  value: string;
  onChange: (address: string) => void;
}

function UnreadBadge({ count }: { count: number }) {
  return count > 0 ? (
    <Badge count={count} overflowCount={999} size="small" title={t('{count} 封未读', { count })} />
  ) : null;
}

/** A mailbox session's one address, easy to copy. */
function OwnAddress({ address }: { address: string }) {
  const unread = useUnread();
  return (
    <Space size="middle" wrap>
      <Typography.Text type="secondary">{t('我的邮箱地址')}</Typography.Text>
      <Typography.Text
        strong
        style={{ fontSize: 16 }}
        data-testid="own-address"
        copyable={{ text: address, tooltips: [t('复制地址'), t('已复制')] }}
      >
        {address}
      </Typography.Text>
      <UnreadBadge count={unread.data?.total ?? 0} />
    </Space>
  );
}

/** A system user's addresses with unread counts; create and delete. */
function AddressPicker({ value, onChange }: Omit<AddressBarProps, 'mailboxAddress'>) {
  const addresses = useAddresses();
  const unread = useUnread();
  const [creating, setCreating] = useState(false);
  const remove = useDeleteAddress(() => {
    showSuccessMessage(t('已删除地址 {address}', { address: value }));
    onChange('');
  });
  const byAddress = unread.data?.byAddress ?? {};
  const markAll = useMarkAllRead((updated) =>
    showSuccessMessage(t('已将 {count} 封邮件标为已读', { count: updated })),
  );

  /** An option's unread count and, when there is unread mail, its 全部已读 control. */
  const optionUnread = (address: string) => {
    const count = address === '' ? (unread.data?.total ?? 0) : (byAddress[address] ?? 0);
    return (
      <Space size={4}>
        <UnreadBadge count={count} />
        {count > 0 ? (
          <Tooltip title={t('全部标为已读')}>
            <Button
              type="text"
              size="small"
              aria-label={t('将 {address} 全部标为已读', { address: address || t('全部地址') })}
              icon={<CheckCircleOutlined />}
              onClick={(event) => {
                // Marking an address read does not pick it.
                event.stopPropagation();
                markAll.mutate(address || undefined, { onError: (error) => showErrorMessage(error.message) });
              }}
            />
          </Tooltip>
        ) : null}
      </Space>
    );
  };

  // Mailbox accounts the user owns receive mail too, though they are not temporary addresses: they
  // appear once they have unread mail, so that none is out of reach.
  const options = useMemo(() => {
    const names = new Set((addresses.data ?? []).map((item) => item.address));
    for (const address of Object.keys(unread.data?.byAddress ?? {})) names.add(address);
    return [...names].sort().map((address) => ({ value: address, label: address }));
  }, [addresses.data, unread.data]);
  const selected = addresses.data?.find((item) => item.address === value);

  return (
    <Space size="middle" wrap className="inbox-address-picker">
      <Select
        aria-label={t('邮箱地址')}
        showSearch
        className="inbox-address-select"
        value={value}
        loading={addresses.isPending}
        onChange={onChange}
        options={[{ value: '', label: t('全部地址') }, ...options]}
        optionRender={(option) => (
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <span>{option.label}</span>
            {optionUnread(String(option.value))}
          </Space>
        )}
        labelRender={(option) => (
          <Space>
            <span>{option.label}</span>
            <UnreadBadge
              count={option.value === '' ? (unread.data?.total ?? 0) : (byAddress[String(option.value)] ?? 0)}
            />
          </Space>
        )}
      />
      {value ? (
        <Typography.Text copyable={{ text: value, tooltips: [t('复制地址'), t('已复制')] }} type="secondary">
          {t('复制')}
        </Typography.Text>
      ) : null}
      <Button icon={<PlusOutlined />} onClick={() => setCreating(true)}>
        {t('新建地址')}
      </Button>
      {selected ? (
        <Popconfirm
          title={t('删除地址 {address}？', { address: selected.address })}
          description={t('删除后该地址不再收信，已收到的邮件也会一并删除，且无法恢复。')}
          okText={t('删除')}
          cancelText={t('取消')}
          okButtonProps={{ danger: true, loading: remove.isPending }}
          onConfirm={() => remove.mutate(selected.id)}
        >
          <Tooltip title={t('删除此地址')}>
            <Button danger icon={<DeleteOutlined />}>
              {t('删除地址')}
            </Button>
          </Tooltip>
        </Popconfirm>
      ) : null}
      {creating ? (
        <Suspense fallback={null}>
          <CreateAddressDialog
            onClose={() => setCreating(false)}
            onCreated={(created) => onChange(created.address)}
          />
        </Suspense>
      ) : null}
    </Space>
  );
}

/** Whose mail is shown: a system user's address picker, or a mailbox session's own address. */
export function AddressBar({ mailboxAddress, value, onChange }: AddressBarProps) {
  return mailboxAddress ? (
    <OwnAddress address={mailboxAddress} />
  ) : (
    <AddressPicker value={value} onChange={onChange} />
  );
}
