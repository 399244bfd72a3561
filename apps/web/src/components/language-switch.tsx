import GlobalOutlinedSvg from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { type CSSProperties, useState } from 'react';
import { LOCALES, setLocale, useLocale } from '../lib/i18n';
import { PlainButton } from './plain/button';
import { plainIcon } from './plain/icon';

const GlobalOutlined = plainIcon(GlobalOutlinedSvg);

/**
 * The switch between the interface's two languages, named in the other one's own words ("English"
 * on a Chinese screen, "简体中文" on an English one, marked `lang` so that a screen reader speaks it
 * in that language); the choice is remembered (lib/i18n). `compact` shows the globe alone (its name
 * is then the button's accessible name). On phones antd's controls are 44 px tall (global.css), a
 * target a finger finds. An antd text button drawn without antd's runtime (components/plain): it
 * stands on /home, whose first script has no antd.
 */
export function LanguageSwitch({
  compact = false,
  className,
  style,
}: {
  compact?: boolean;
  className?: string;
  style?: CSSProperties;
}) {
  const locale = useLocale();
  const [switching, setSwitching] = useState(false);
  const other = LOCALES.find((entry) => entry.value !== locale) ?? LOCALES[0];
  if (!other) return null;
  return (
    <PlainButton
      type="text"
      icon={<GlobalOutlined />}
      loading={switching}
      data-testid="language-switch"
      lang={other.value}
      aria-label={compact ? other.label : undefined}
      className={className}
      style={style}
      onClick={() => {
        setSwitching(true);
        void setLocale(other.value).finally(() => setSwitching(false));
      }}
    >
      {compact ? null : other.label}
    </PlainButton>
  );
}
