import { Permission } from '@youju/contract';
import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { CardTable } from '../../../features/cards/components/card-table';
import { OrderTable } from '../../../features/orders/components/order-table';
import { PaySettingsForm } from '../../../features/orders/components/pay-settings-form';
import { usePermissions } from '../../../state/permission';

const TABS = ['cards', 'orders', 'payment'] as const;
type Tab = (typeof TABS)[number];

/** /user/card: cards, with the store's orders beside them and, for administrators, payment settings. */
export function Component() {
  const [searchParams, setSearchParams] = useSearchParams();
  const permissions = usePermissions();
  const canPay = permissions.includes(Permission.systemSettings);
  const requested = searchParams.get('tab');
  const active: Tab =
    TABS.includes(requested as Tab) && (requested !== 'payment' || canPay) ? (requested as Tab) : 'cards';
  const items = [
    { key: 'cards', label: '卡密', children: <CardTable /> },
    {
      key: 'orders',
      label: '订单',
      children: (
        <Card title="商店订单">
          <OrderTable />
        </Card>
      ),
    },
    ...(canPay
      ? [
          {
            key: 'payment',
            label: '支付设置',
            children: (
              <Card title="支付设置">
                <PaySettingsForm />
              </Card>
            ),
          },
        ]
      : []),
  ];
  return (
    <Tabs
      activeKey={active}
      items={items}
      onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
    />
  );
}
