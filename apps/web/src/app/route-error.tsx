import { CloseCircleFilled } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { useRouteError } from 'react-router-dom';
import { t } from '../lib/i18n';

/**
 * Shown when a screen fails to load or throws, e.g. after a new version replaced its code file. It
 * is part of the first script (a screen's code may be what failed to arrive), so it is drawn with
 * the theme's tokens rather than antd's Result, whose status illustrations would weigh on every
 * first visit.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const { token } = theme.useToken();
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <CloseCircleFilled style={{ fontSize: 72, color: token.colorError }} />
      <div
        style={{ marginTop: token.marginLG, fontSize: token.fontSizeHeading3, color: token.colorTextHeading }}
      >
        {t('页面加载失败')}
      </div>
      <div style={{ marginTop: token.marginXS, color: token.colorTextDescription }}>
        {t('可能是网络不稳定或站点刚刚更新，请刷新页面重试。')}
      </div>
      <Button type="primary" style={{ marginTop: token.marginLG }} onClick={() => window.location.reload()}>
        {t('刷新页面')}
      </Button>
    </div>
  );
}
