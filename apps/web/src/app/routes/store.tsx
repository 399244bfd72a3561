import { Alert, Card, Space, Tabs } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { loginEmail } from '../../features/auth/api/login-email';
import { rememberAuthTab } from '../../features/auth/components/auth-panel';
import { useSaleDomains } from '../../features/sale-domains/api/get-sale-domains';
import { SaleDomainList } from '../../features/sale-domains/components/sale-domain-list';
import { BuyMailboxForm } from '../../features/shop/components/buy-mailbox-form';
import { OrderLookup } from '../../features/shop/components/order-lookup';
import { RedeemCardForm } from '../../features/shop/components/redeem-card-form';
import { showErrorMessage } from '../../lib/feedback';
import { t } from '../../lib/i18n';
import { useSettingsStore } from '../../state/settings';
import { useEnterSession } from '../use-enter-session';

/** Store: domains for sale, buying one mailbox, redeeming a card, and looking up orders by phone. */
export function Component() {
  const storeOpen = useSettingsStore((state) => state.settings.storeOpen) !== false;
  const domainsQuery = useSaleDomains(storeOpen);
  const [searchParams] = useSearchParams();
  const [tab, setTab] = useState('buy');
  const [chosenDomain, setChosenDomain] = useState<number | undefined>();
  const domains = domainsQuery.data ?? [];
  const returnedOrder = searchParams.get('orderNo');
  const enter = useEnterSession();
  // 登录新邮箱 after a card was redeemed: the credentials just typed, straight into the new inbox.
  const loginRedeemed = async (email: string, password: string) => {
    try {
      const { token } = await loginEmail({ email, password });
      rememberAuthTab('mailbox');
      await enter(token);
    } catch (error) {
      showErrorMessage((error as Error).message || t('登录失败，请到登录页用邮箱登录'));
    }
  };

  const items = [
    ...(storeOpen && domains.length > 0
      ? [
          {
            key: 'buy',
            label: t('购买邮箱'),
            children: <BuyMailboxForm domains={domains} selectedDomainId={chosenDomain} />,
          },
        ]
      : []),
    { key: 'redeem', label: t('兑换卡密'), children: <RedeemCardForm onLogin={loginRedeemed} /> },
    { key: 'orders', label: t('查询订单'), children: <OrderLookup /> },
  ];
  const active = items.some((item) => item.key === tab) ? tab : (items[0]?.key ?? 'redeem');

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {returnedOrder && (
        <Alert
          type="info"
          showIcon
          closable
          title={t('订单 {orderNo} 已提交支付', { orderNo: returnedOrder })}
          description={t('支付成功后邮箱会在几秒内开通，可在下方“查询订单”中用下单手机号查看。')}
        />
      )}
      <Card title={t('商店')}>
        <SaleDomainList
          onBuy={(domain) => {
            setChosenDomain(domain.id);
            setTab('buy');
          }}
        />
      </Card>
      <Card>
        <Tabs activeKey={active} onChange={setTab} items={items} />
      </Card>
    </Space>
  );
}
