import CloseCircleFilledSvg from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import { useRouteError } from 'react-router-dom';
import { PlainButton } from '../components/plain/button';
import { plainIcon } from '../components/plain/icon';
import { tokens } from '../components/plain/tokens';
import { t } from '../lib/i18n';

const CloseCircleFilled = plainIcon(CloseCircleFilledSvg);
/** The theme's colorError, fontSizeHeading3, marginLG and marginXS (antd's defaults). */
const COLOR_ERROR = '#ff4d4f';
const FONT_SIZE_HEADING_3 = 24;
const MARGIN_LG = 24;
const MARGIN_XS = 8;

/**
 * Shown when a screen fails to load or throws, e.g. after a new version replaced its code file. It
 * is part of the first script (a screen's code may be what failed to arrive), so it is drawn without
 * antd's runtime (components/plain), rather than with antd's Result, whose status illustrations
 * would weigh on every first visit.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <CloseCircleFilled style={{ fontSize: 72, color: COLOR_ERROR }} />
      <div style={{ marginTop: MARGIN_LG, fontSize: FONT_SIZE_HEADING_3, color: tokens.colorTextHeading }}>
        {t('页面加载失败')}
      </div>
      <div style={{ marginTop: MARGIN_XS, color: tokens.colorTextDescription }}>
        {t('可能是网络不稳定或站点刚刚更新，请刷新页面重试。')}
      </div>
      <PlainButton type="primary" style={{ marginTop: MARGIN_LG }} onClick={() => window.location.reload()}>
        {t('刷新页面')}
      </PlainButton>
    </div>
  );
}
