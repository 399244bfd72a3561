import CloseCircleFilledSvg from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import InfoCircleFilledSvg from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import type { ReactNode } from 'react';
import { plainIcon } from './icon';
import 'virtual:antd-style/vars/Alert.css';
import 'virtual:antd-style/hook/Alert-Alert.css';

const icons = { info: plainIcon(InfoCircleFilledSvg), error: plainIcon(CloseCircleFilledSvg) };

/** antd's Alert (showIcon) with its markup and style sheet, without antd's runtime (see button.tsx). */
export function PlainAlert({
  type,
  title,
  description,
}: {
  type: 'info' | 'error';
  title: ReactNode;
  description?: ReactNode;
}) {
  const Icon = icons[type];
  return (
    <div
      data-show="true"
      className={`ant-alert ant-alert-${type} ant-alert-outlined${description ? ' ant-alert-with-description' : ''} css-var-youju`}
      role="alert"
    >
      <span className="ant-alert-icon">
        <Icon />
      </span>
      <div className="ant-alert-section">
        <div className="ant-alert-title">{title}</div>
        {description ? <div className="ant-alert-description">{description}</div> : null}
      </div>
    </div>
  );
}
