import { afterEach, describe, expect, it } from 'vitest';
import {
  acceptLanguage,
  currentLocale,
  LOCALE_STORAGE_KEY,
  loadLocale,
  registerLocaleLoader,
  setLocale,
  t,
} from '.';

afterEach(async () => {
  await setLocale('zh-CN');
  localStorage.clear();
});

describe('the interface language', () => {
  it('is Chinese by default, whatever the browser prefers, with values filled in', async () => {
    await loadLocale();
    expect(currentLocale()).toBe('zh-CN');
    expect(t('已删除 {count} 封', { count: 3 })).toBe('已删除 3 封');
    expect(acceptLanguage()).toBe('zh-CN');
  });

  it('switches to English, is remembered, and falls back to the Chinese text for a key it lacks', async () => {
    await setLocale('en');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('en');
    expect(acceptLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(t('一个没有英文的词')).toBe('一个没有英文的词');
    expect(t('昨天')).toBe('Yesterday');
    await setLocale('zh-CN');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'en');
    await loadLocale();
    expect(currentLocale()).toBe('en');
  });

  it('ignores a stored value it does not know', async () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'fr');
    await loadLocale();
    expect(currentLocale()).toBe('zh-CN');
  });

  it("switches only once a registered loader (antd's texts) has its language", async () => {
    const asked: string[] = [];
    let finish: () => void = () => {};
    registerLocaleLoader(async (next) => {
      asked.push(next);
      if (next === 'en') await new Promise<void>((resolve) => (finish = resolve));
    });
    const switching = setLocale('en');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toEqual(['en']);
    expect(currentLocale()).toBe('zh-CN');
    finish();
    await switching;
    expect(currentLocale()).toBe('en');
  });
});
