import { GlobalOutlined } from '@ant-design/icons';
import type { SaleDomain } from '@youju/contract';
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Statistic, Typography } from 'antd';
import { t } from '../../../lib/i18n';
import { useSettingsStore } from '../../../state/settings';
import { useSaleDomains } from '../api/get-sale-domains';

/** Prices travel in fen (分); people read yuan (元). */
export function formatYuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

export function stockText(stock: SaleDomain['stock']): string {
  if (stock === null || stock === undefined) return t('库存充足');
  return stock > 0 ? t('剩余 {count} 个', { count: stock }) : t('已售完');
}

/** Domains whose mailboxes the store sells, with their price per mailbox; `onBuy` adds a 购买 button. */
export function SaleDomainList({ onBuy }: { onBuy?: (domain: SaleDomain) => void } = {}) {
  const storeOpen = useSettingsStore((state) => state.settings.storeOpen);
  const domainsQuery = useSaleDomains(storeOpen !== false);

  if (storeOpen === false) {
    return (
      <Alert type="info" showIcon title={t('商店当前已关闭')} description={t('站点管理员关闭了邮箱销售。')} />
    );
  }
  if (domainsQuery.isPending) return <Skeleton active />;
  if (domainsQuery.isError) {
    return (
      <Alert type="error" showIcon title={t('在售域名读取失败')} description={domainsQuery.error.message} />
    );
  }
  if (domainsQuery.data.length === 0) {
    return <Empty description={t('暂无在售的邮箱域名')} />;
  }
  return (
    <Row gutter={[16, 16]}>
      {domainsQuery.data.map((domain) => (
        <Col key={domain.id} xs={24} sm={12} lg={8}>
          <Card>
            <Typography.Title level={4} style={{ marginTop: 0 }}>
              <GlobalOutlined /> {domain.name}
            </Typography.Title>
            <Statistic title={t('邮箱价格')} value={formatYuan(domain.price)} suffix={t('元 / 个')} />
            <Typography.Text type="secondary">{stockText(domain.stock)}</Typography.Text>
            {domain.freeRegistration ? (
              <Typography.Paragraph type="warning" style={{ margin: '8px 0 0' }}>
                {t('该域名也开放免费注册，可在登录页“注册邮箱”免费获得')}
              </Typography.Paragraph>
            ) : null}
            {onBuy && (
              <Button
                type="primary"
                block
                style={{ marginTop: 12 }}
                disabled={domain.stock === 0}
                onClick={() => onBuy(domain)}
              >
                {domain.stock === 0 ? t('已售完') : t('购买')}
              </Button>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
