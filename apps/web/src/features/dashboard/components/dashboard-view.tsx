import type { DashboardView as DashboardFigures } from '@youju/contract';
import { Alert, Card, Col, Row, Skeleton, Statistic, Typography } from 'antd';
import { useMemo } from 'react';
import { useAppComponents } from '../../../components/app-components';
import { LineChart } from '../../../components/charts/line-chart';
import { formatBytes } from '../../../lib/bytes';
import { t, tc } from '../../../lib/i18n';
import { useDashboard } from '../api/get-dashboard';

interface StatCard {
  title: string;
  value: number | string;
  hint?: string;
}

function statCards(totals: DashboardFigures['totals']): StatCard[] {
  return [
    { title: t('今日收信'), value: totals.receivedToday },
    { title: t('30 天收信'), value: totals.received30d },
    { title: t('今日发信'), value: totals.sentToday },
    { title: t('30 天发信'), value: totals.sent30d },
    { title: t('邮箱地址'), value: totals.addresses },
    { title: t('邮箱账号'), value: totals.mailboxes },
    { title: t('域名'), value: totals.domains },
    { title: t('已用存储'), value: formatBytes(totals.storageBytes) },
    { title: t('待投递队列'), value: totals.queueLength, hint: t('等待发送或重试的收件人') },
    { title: t('投递失败'), value: totals.deliveryFailures, hint: t('近 30 天永久失败的收件人') },
  ];
}

/** /user/dashboard: stat cards, 30 days of mail in and out, and the health radar. */
export function DashboardView() {
  const { RadarChart } = useAppComponents();
  const query = useDashboard();
  const data = query.data;

  const lines = useMemo(
    () =>
      data
        ? {
            categories: data.daily.map((day) => day.date.slice(5)),
            series: [
              { name: t('收信'), values: data.daily.map((day) => day.received) },
              { name: tc('chart', '发信'), values: data.daily.map((day) => day.sent) },
            ],
          }
        : null,
    [data],
  );
  const radar = useMemo(
    () =>
      data
        ? {
            indicators: data.radar.map(({ name, max }) => ({ name, max })),
            series: [
              {
                name: data.scope === 'system' ? t('全站') : t('我的域名和邮箱'),
                values: data.radar.map((d) => d.value),
              },
            ],
          }
        : null,
    [data],
  );

  if (query.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!data || !lines || !radar)
    return <Alert type="error" title={t('仪表盘数据加载失败，请刷新重试')} showIcon />;

  return (
    <div>
      <Typography.Paragraph type="secondary">
        {data.scope === 'system'
          ? t('全站数据，每分钟自动刷新。')
          : t('你的域名和邮箱的数据，每分钟自动刷新。')}
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {statCards(data.totals).map((card) => (
          <Col key={card.title} xs={12} sm={8} md={6} xl={4}>
            <Card size="small" aria-label={card.title}>
              <Statistic title={card.title} value={card.value} />
              {card.hint ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {card.hint}
                </Typography.Text>
              ) : null}
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} xl={14}>
          <Card title={t('近 30 天收发信')} className="dashboard-line-chart">
            <LineChart categories={lines.categories} series={lines.series} />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('健康度')} className="dashboard-radar-chart">
            <RadarChart indicators={radar.indicators} series={radar.series} />
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {data.radar.map((item) => `${item.name} ${item.value}`).join(' · ')}
              {t('（满分 100）')}
            </Typography.Paragraph>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
