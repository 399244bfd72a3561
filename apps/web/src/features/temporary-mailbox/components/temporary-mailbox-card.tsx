import ThunderboltOutlinedSvg from '@ant-design/icons-svg/es/asn/ThunderboltOutlined';
import type { RegEmailData } from '@youju/contract';
import { type ReactNode, Suspense, useState } from 'react';
import { useOpenDomains } from '../../../api/get-open-domains';
import { lazyWithAntd } from '../../../components/lazy-antd';
import { Panel } from '../../../components/panel';
import { PlainAlert } from '../../../components/plain/alert';
import { PlainButton } from '../../../components/plain/button';
import { plainIcon } from '../../../components/plain/icon';
import { PlainSpace } from '../../../components/plain/space';
import { Paragraph, SecondaryText } from '../../../components/text';
import { t } from '../../../lib/i18n';
import { useCreateTemporaryMailbox } from '../api/create-temporary-mailbox';

// /home is the first page of most visits, drawn without antd's runtime (components/plain), and most
// visitors see neither of these: the domain picker shows only when several domains are open, the
// confirmation only to someone logged in. Their code, and antd's frame, is fetched when they show.
const Popconfirm = lazyWithAntd(() => import('antd/es/popconfirm'));
const Select = lazyWithAntd(() => import('antd/es/select'));
const ThunderboltOutlined = plainIcon(ThunderboltOutlinedSvg);

interface TemporaryMailboxCardProps {
  /** getVar's registrationOpen; undefined while unknown */
  registrationOpen: boolean | undefined;
  /** the site's default domain, when the settings name one */
  defaultDomainId?: number | null;
  /** someone is logged in here: a new mailbox replaces that session */
  loggedIn: boolean;
  onCreated: (data: RegEmailData) => Promise<void>;
}

/** 一键获取临时邮箱: a random address on an open domain with a generated credential, straight into its inbox. */
export function TemporaryMailboxCard({
  registrationOpen,
  defaultDomainId,
  loggedIn,
  onCreated,
}: TemporaryMailboxCardProps) {
  const domains = useOpenDomains(registrationOpen !== false);
  const [chosen, setChosen] = useState<number | null>(null);
  const create = useCreateTemporaryMailbox(onCreated);
  const list = domains.data ?? [];
  const fallback = list.find((domain) => domain.id === defaultDomainId) ?? list[0];
  const domainId = list.some((domain) => domain.id === chosen) ? chosen : (fallback?.id ?? null);

  let body: ReactNode;
  if (registrationOpen === false) {
    body = <PlainAlert type="info" title={t('本站当前未开放注册，暂时无法获取临时邮箱')} />;
  } else if (domains.isError) {
    body = <PlainAlert type="error" title={t('读取可用域名失败')} description={domains.error.message} />;
  } else if (domains.isSuccess && list.length === 0) {
    body = <PlainAlert type="info" title={t('暂无开放注册的域名，暂时无法获取临时邮箱')} />;
  } else {
    const button = (
      <PlainButton
        type="primary"
        size="large"
        icon={<ThunderboltOutlined />}
        loading={create.isPending || domains.isPending}
        disabled={domainId === null}
        onClick={loggedIn || domainId === null ? undefined : () => create.mutate(domainId)}
      >
        {t('一键获取临时邮箱')}
      </PlainButton>
    );
    body = (
      <PlainSpace wrap size="middle">
        {loggedIn && domainId !== null ? (
          <Suspense fallback={button}>
            <Popconfirm
              title={t('获取新的临时邮箱？')}
              description={t('这会退出当前登录；临时邮箱退出后，只能用邮箱地址和凭证再次进入。')}
              okText={t('继续')}
              cancelText={t('取消')}
              onConfirm={() => create.mutate(domainId)}
            >
              {button}
            </Popconfirm>
          </Suspense>
        ) : (
          button
        )}
        {list.length > 1 ? (
          <Suspense fallback={null}>
            <Select
              aria-label={t('临时邮箱域名')}
              value={domainId ?? undefined}
              onChange={(value) => setChosen(Number(value))}
              style={{ minWidth: 200 }}
              options={list.map((domain) => ({ value: domain.id, label: `@${domain.name}` }))}
            />
          </Suspense>
        ) : fallback ? (
          <SecondaryText>@{fallback.name}</SecondaryText>
        ) : null}
      </PlainSpace>
    );
  }

  return (
    <Panel title={t('临时邮箱')}>
      <Paragraph secondary>
        {t(
          '无需注册，点一下得到一个随机地址和它的凭证，收信实时显示，适合接收验证码。保存好凭证，退出后也能在登录页用地址和凭证回来；到期后自动删除。',
        )}
      </Paragraph>
      {body}
    </Panel>
  );
}
