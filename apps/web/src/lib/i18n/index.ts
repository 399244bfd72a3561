/**
 * The interface's languages: Simplified Chinese (the default) and English.
 *
 * The Chinese text is the key (as gettext does): `t('保存')` is 保存 in Chinese and the English
 * catalogue's entry (`en/*.json`) in English, so the code reads as the screen does. Values go in
 * braces: `t('已删除 {count} 封', { count })`. The English catalogue and antd's English locale load
 * only when English is chosen, so a Chinese visitor downloads neither. `scripts/check-i18n.mjs`
 * fails on Chinese text outside `t()` and on a key without its English entry.
 */
import dayjs from 'dayjs';
import { useSyncExternalStore } from 'react';

export type Locale = 'zh-CN' | 'en';
/** Each language by its own name, the same in every language. */
export const LOCALES: readonly { value: Locale; label: string }[] = [
  { value: 'zh-CN', label: '简体中文' }, // i18n-exempt
  { value: 'en', label: 'English' },
];

/** Local storage key of the chosen language (a plain string). */
export const LOCALE_STORAGE_KEY = 'locale';

type Catalogue = Record<string, string>;
let locale: Locale = 'zh-CN';
let english: Catalogue | null = null;
const listeners = new Set<() => void>();
/** What else a switch waits for before the screens render in the new language (registerLocaleLoader). */
const loaders = new Set<(next: Locale) => Promise<void>>();

function storedLocale(): Locale | null {
  try {
    const value = localStorage.getItem(LOCALE_STORAGE_KEY);
    return value === 'en' || value === 'zh-CN' ? value : null;
  } catch {
    return null;
  }
}

function interpolate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** The text in the current language, with `{name}` replaced from `values`. */
export function t(text: string, values?: Record<string, string | number>): string {
  const template = locale === 'en' ? (english?.[text] ?? text) : text;
  return values ? interpolate(template, values) : template;
}

/**
 * `t` for a text whose English depends on where it stands: 关闭 is "Close" on a button and "Closed"
 * as a state; 启用 is "Enabled" as a state and "Enable" as an action. Its English entry is keyed
 * `context|text` (`"state|关闭": "Closed"`); Chinese shows the text as it is.
 */
export function tc(context: string, text: string, values?: Record<string, string | number>): string {
  const template = locale === 'en' ? (english?.[`${context}|${text}`] ?? text) : text;
  return values ? interpolate(template, values) : template;
}

export function currentLocale(): Locale {
  return locale;
}

/** What the API is told (`Accept-Language`), so that its `msg` comes in the same language. */
export function acceptLanguage(): string {
  return locale === 'en' ? 'en' : 'zh-CN';
}

/**
 * The English catalogue: every `en/*.json` (one per part of the interface, so that work on two
 * parts never edits the same file), merged, loaded together on the first switch to English.
 */
async function loadEnglish(): Promise<void> {
  if (english) return;
  const parts = await Promise.all(
    Object.values(import.meta.glob<{ default: Catalogue }>('./en/*.json')).map((load) => load()),
  );
  english = Object.assign({}, ...parts.map((part) => part.default));
}

function apply(next: Locale): void {
  locale = next;
  // dayjs's English is built in; its Chinese is loaded by lib/dates.ts.
  dayjs.locale(next === 'en' ? 'en' : 'zh-cn');
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

/**
 * At start-up, before the first render: the stored choice. Chinese is the default whatever the
 * browser prefers (the product's language; a visitor switches once and it is remembered). English
 * waits for its catalogue (one small request); Chinese needs nothing.
 */
export async function loadLocale(): Promise<void> {
  const chosen = storedLocale() ?? 'zh-CN';
  if (chosen === 'en') {
    try {
      await loadEnglish();
    } catch {
      return; // the catalogue could not load (offline, an old deployment): stay in Chinese
    }
  }
  apply(chosen);
}

/**
 * Registers texts of the new language that a switch waits for besides the catalogue: antd's own,
 * registered by antd's frame when it loads (components/antd-provider.tsx), since this module is part
 * of /home's first script, which has no antd. `load` never rejects.
 */
export function registerLocaleLoader(load: (next: Locale) => Promise<void>): void {
  loaders.add(load);
}

/** Switches the language and remembers it; the screens render again in it. */
export async function setLocale(next: Locale): Promise<void> {
  if (next === 'en') await loadEnglish();
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, next);
  } catch {
    // Storage disabled: the choice holds until the page is left.
  }
  await Promise.all([...loaders].map((load) => load(next)));
  apply(next);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current language; a component using it renders again when it changes. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, currentLocale, currentLocale);
}
