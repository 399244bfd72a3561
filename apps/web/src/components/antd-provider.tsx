import { ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useEffect, useState } from 'react';
import { antdTheme } from '../config/theme';
import { useLocale } from '../lib/i18n';

/**
 * antd's frame: its locale (Chinese unless English was chosen, lib/i18n) and the theme. Not at the
 * root: every screen built from antd components sits in one (the /auth, /use, /store and /user
 * routes through layouts/antd-frame.tsx; antd parts fetched on /home through lazyWithAntd), so
 * that /home, drawn without antd, neither downloads nor runs antd's runtime at start-up.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  // antd's English texts load with the first switch to English (a Chinese visitor never needs them).
  const [antdEnglish, setAntdEnglish] = useState<AntdLocale | null>(null);
  useEffect(() => {
    if (locale === 'en' && !antdEnglish)
      void import('antd/locale/en_US').then((module) => setAntdEnglish(module.default));
  }, [locale, antdEnglish]);
  return (
    <ConfigProvider locale={locale === 'en' && antdEnglish ? antdEnglish : zhCN} theme={antdTheme}>
      {children}
    </ConfigProvider>
  );
}
