import { ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { antdTheme } from '../config/theme';
import { currentLocale, type Locale, registerLocaleLoader, useLocale } from '../lib/i18n';

/**
 * antd's English texts, loaded once for every frame: there is one frame per antd part on /home and
 * one around the antd screens, and a frame that fetched its own would draw antd's Chinese texts
 * (暂无数据, 条/页…) until its copy arrived.
 */
let antdEnglish: AntdLocale | null = null;
let loadingEnglish: Promise<void> | null = null;
const listeners = new Set<() => void>();

/**
 * Resolves once antd's texts for `locale` (the current language unless given) are here: at once in Chinese (zh_CN comes with
 * antd's frame), after antd's en_US in English (a Chinese visitor never downloads it). It never
 * rejects: if en_US cannot load, antd's own texts stay Chinese and the screen still shows.
 */
export function loadAntdLocale(locale: Locale = currentLocale()): Promise<void> {
  if (locale !== 'en' || antdEnglish) return Promise.resolve();
  loadingEnglish ??= import('antd/locale/en_US').then(
    (module) => {
      antdEnglish = module.default;
      for (const listener of listeners) listener();
    },
    () => {
      loadingEnglish = null; // tried again on the next frame or switch
    },
  );
  return loadingEnglish;
}

// A switch to English waits for antd's English too (lib/i18n), once antd's frame is here: the screen
// turns English in one render, antd's texts with the app's.
registerLocaleLoader(loadAntdLocale);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function loadedEnglish(): AntdLocale | null {
  return antdEnglish;
}

/**
 * antd's frame: its locale (Chinese unless English was chosen, lib/i18n) and the theme. Not at the
 * root: every screen built from antd components sits in one (the /auth, /use, /store and /user
 * routes through layouts/antd-frame.tsx; antd parts fetched on /home through lazyWithAntd), so
 * that /home, drawn without antd, neither downloads nor runs antd's runtime at start-up. Both load
 * antd's English before they render in English (loadAntdLocale).
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  const english = useSyncExternalStore(subscribe, loadedEnglish, loadedEnglish);
  // Only if it failed to load before (offline for a moment): try again.
  useEffect(() => {
    if (locale === 'en' && !english) void loadAntdLocale();
  }, [locale, english]);
  return (
    <ConfigProvider locale={locale === 'en' && english ? english : zhCN} theme={antdTheme}>
      {children}
    </ConfigProvider>
  );
}
