import { Card, Tabs } from 'antd';
import { Navigate, useSearchParams } from 'react-router-dom';
import { userScreens } from '../../../config/routes';
import { CardTable } from '../../../features/cards/components/card-table';
import { OrderTable } from '../../../features/orders/components/order-table';
import { t, tc } from '../../../lib/i18n';

const TABS = ['cards', 'orders'] as const;
type Tab = (typeof TABS)[number];

/** The settings screen, where the payment settings live (section #payment). */
const settingsPath = userScreens.find((screen) => screen.screen === 'setting')?.path ?? '/user/setting';

/**
 * /user/card: cards, with the store's orders beside them. Payment settings used to have a tab here
 * too; they live in one place now, the 支付 section of /user/setting, and the old link leads there.
 */
export function Component() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  if (requested === 'payment') return <Navigate to={`${settingsPath}#payment`} replace />;
  const active: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'cards';
  const items = [
    { key: 'cards', label: tc('tab', '卡密'), children: <CardTable /> },
    {
      key: 'orders',
      label: t('订单'),
      children: (
        <Card title={t('商店订单')}>
          <OrderTable />
        </Card>
      ),
    },
  ];
  return (
    <Tabs
      activeKey={active}
      items={items}
      onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
    />
  );
}
