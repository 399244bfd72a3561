import { Card, Descriptions, Empty, Skeleton, Typography } from 'antd';
import { MarkdownView } from '../../../components/markdown/markdown-view';
import { TimeText } from '../../../components/time-text';
import { t, useLocale } from '../../../lib/i18n';
import { useVersion } from '../api/get-version';

function engineName(engine: 'sqlite' | 'postgres'): string {
  return engine === 'sqlite' ? t('SQLite（内置）') : 'PostgreSQL';
}

/** Seconds as 3 天 4 小时 5 分钟. */
export function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [
    days ? t('{count} 天', { count: days }) : '',
    hours ? t('{count} 小时', { count: hours }) : '',
    t('{count} 分钟', { count: minutes }),
  ];
  return parts.filter(Boolean).join(' ');
}

/** /user/version: what is running, where, since when, and what changed. */
export function VersionView() {
  const { data, isPending } = useVersion();
  const locale = useLocale();
  if (isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!data) return <Empty description={t('版本信息加载失败，请刷新重试')} />;
  return (
    <>
      <Card title={t('版本信息')} style={{ marginBottom: 16 }}>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label={t('版本')}>{data.version}</Descriptions.Item>
          <Descriptions.Item label={t('构建提交')}>
            {data.commit ? (
              <Typography.Text copyable={{ text: data.commit }}>{data.commit.slice(0, 12)}</Typography.Text>
            ) : (
              t('未记录（非 Git 构建）')
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('构建时间')}>
            <TimeText value={data.buildDate} fallback={t('未记录')} />
          </Descriptions.Item>
          <Descriptions.Item label={t('Node.js 版本')}>{data.node}</Descriptions.Item>
          <Descriptions.Item label={t('数据库')}>{engineName(data.engine)}</Descriptions.Item>
          <Descriptions.Item label={t('数据库结构版本')}>{data.schemaVersion}</Descriptions.Item>
          <Descriptions.Item label={t('启动时间')}>
            <TimeText value={data.startedAt} />
          </Descriptions.Item>
          <Descriptions.Item label={t('已运行')}>{formatUptime(data.uptimeSeconds)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('更新日志')}>
        {data.changelog.trim() ? (
          // The changelog is the release's own document, written in Chinese (CHANGELOG.md): shown
          // as it is, its language declared, with a word about it on an English screen.
          <>
            {locale === 'en' && (
              <Typography.Paragraph type="secondary">{t('更新日志以中文撰写。')}</Typography.Paragraph>
            )}
            <div lang="zh-CN">
              <MarkdownView source={data.changelog} />
            </div>
          </>
        ) : (
          <Empty description={t('本版本没有附带更新日志')} />
        )}
      </Card>
    </>
  );
}
