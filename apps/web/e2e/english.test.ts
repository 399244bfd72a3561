import type { Domain } from '@youju/contract';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths, publicRoutes, userScreens } from '../src/config/routes';
import { addDomain, createAddress, uniqueName } from './support/api';
import { navigate, phoneViewport, settle } from './support/browser';
import { sendSmtp } from './support/smtp';
import { setUpBrowserSuite } from './support/suite';

/** Chinese characters (CJK ideographs and the full-width punctuation that goes with them). */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

const DAY_MS = 24 * 60 * 60 * 1000;
const desktopViewport: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/**
 * The lines of the page's visible text that contain Chinese, leaving out elements marked
 * lang="zh-CN" (the language switch names Chinese in Chinese: 简体中文) and `allowed` values.
 */
async function chineseLines(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    // Elements in Chinese on purpose are hidden while the page's rendered text is read, then shown
    // again (cutting their text out of the page's was unreliable for a long document: the two
    // renderings of its line breaks need not match).
    const declared = [...document.body.querySelectorAll<HTMLElement>('[lang="zh-CN"]')];
    const displays = declared.map((element) => element.style.display);
    for (const element of declared) element.style.display = 'none';
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point; hidden nodes are not on the screen
    const shown = document.body.innerText;
    declared.forEach((element, index) => {
      element.style.display = displays[index] ?? '';
    });
    return shown;
  });
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => CJK.test(line));
}

async function pageLanguage(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.lang);
}

async function expectEnglish(page: Page, where: string): Promise<void> {
  await settle(page);
  expect(await pageLanguage(page), where).toBe('en');
  expect(await chineseLines(page), `Chinese left on ${where}`).toEqual([]);
  expect(await page.title(), `window title of ${where}`).not.toMatch(CJK);
}

/** A plain ASCII message (its own text must not count as Chinese on the screen). */
function message(to: string, subject: string): Buffer {
  const head = [
    `Message-ID: <${uniqueName('m')}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'From: Alice Example <alice@e2e.test>',
    `To: ${to}`,
    `Subject: ${subject}`,
    'Content-Type: text/plain; charset=UTF-8',
  ].join('\r\n');
  return Buffer.from(`${head}\r\n\r\nHello in English.\r\nSecond line.\r\n`);
}

describe('English as a second language in the browser', () => {
  const suite = setUpBrowserSuite();
  let domain: Domain;

  beforeAll(async () => {
    domain = await addDomain(suite.admin, { name: `${uniqueName('en')}.test`, publicRegistration: true });
  });

  for (const [device, viewport] of [
    ['desktop', desktopViewport],
    ['phone', phoneViewport],
  ] as const) {
    it(`switches /auth, the inbox and the reader to English and back (${device})`, async () => {
      const narrow = device === 'phone';
      const address = await createAddress(suite.admin, { domainId: domain.id, localPart: uniqueName('box') });
      const subject = `Weekly report ${uniqueName('s')}`;
      const reply = await sendSmtp(
        suite.server.smtpPort,
        'alice@e2e.test',
        address,
        message(address, subject),
      );
      expect(reply).toMatch(/^250/);

      const { context, page } = await suite.newPage(viewport);
      try {
        // The browser's day is tomorrow, so the message just received was received "yesterday"
        // (the server stamps it with its real time). The clock keeps running from there.
        await context.clock.install({ time: Date.now() + DAY_MS });

        // Chinese by default; the switch names English in English.
        await page.goto(`${suite.baseUrl}${paths.auth}`);
        const languageSwitch = page.getByTestId('language-switch');
        await languageSwitch.filter({ hasText: 'English' }).waitFor();
        expect(await pageLanguage(page)).toBe('zh-CN');
        expect((await languageSwitch.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(narrow ? 44 : 32);

        await languageSwitch.click();
        await languageSwitch.filter({ hasText: '简体中文' }).waitFor();
        expect(await languageSwitch.getAttribute('lang')).toBe('zh-CN');
        await page.getByRole('link', { name: 'Back to home' }).waitFor();
        await expectEnglish(page, '/auth');

        // Remembered: a reload comes back in English.
        await page.reload();
        await page.getByRole('link', { name: 'Back to home' }).waitFor();
        expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
        await expectEnglish(page, '/auth after a reload');

        // An API error is the server's own `msg`, in English (Accept-Language: en).
        await page.locator('#system-login_username').fill(suite.server.adminUser);
        await page.locator('#system-login_password').fill('not-the-password');
        await page.locator('form#system-login button[type="submit"]').click();
        const failure = page.locator('.ant-message-notice').last();
        await failure.waitFor();
        const failureText = ((await failure.textContent()) ?? '').trim();
        expect(failureText).not.toMatch(CJK);
        expect(failureText).toMatch(/username or password/i);

        // Log in: the inbox, with the message received yesterday.
        await page.locator('#system-login_password').fill(suite.server.adminPassword);
        await page.locator('form#system-login button[type="submit"]').click();
        await page.waitForURL(`${suite.baseUrl}${paths.user}/inbox`);
        const item = page.getByTestId('message-item').filter({ hasText: subject });
        await item.waitFor();
        expect(((await item.locator('time').textContent()) ?? '').trim()).toMatch(/^Yesterday \d{2}:\d{2}$/);
        await expectEnglish(page, 'the inbox');
        expect(await page.title()).toMatch(/^Inbox - /);

        // The reader.
        await item.click();
        await page.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
        expect(((await page.getByTestId('reader-time').textContent()) ?? '').trim()).toMatch(
          /^Yesterday \d{2}:\d{2}$/,
        );
        await expectEnglish(page, 'the reader');
        if (narrow) {
          await page.getByTestId('reader-back').click();
          await page.getByTestId('reader-screen').waitFor({ state: 'detached' });
        }

        // Every other screen an administrator can open, and the public ones.
        for (const path of [publicRoutes.home.path, publicRoutes.use.path, publicRoutes.store.path]) {
          await navigate(page, suite.baseUrl, path);
          await expectEnglish(page, path);
        }
        for (const screen of userScreens) {
          await navigate(page, suite.baseUrl, screen.path);
          await expectEnglish(page, screen.path);
        }
        await page.goto(`${suite.baseUrl}${paths.user}/inbox`);
        await page.getByTestId('message-item').first().waitFor();

        // Back to Chinese: in the header on a desktop, in the menu drawer on a phone.
        if (narrow) {
          await page.getByTestId('menu-button').click();
          const drawerSwitch = page.locator('.menu-drawer').getByTestId('language-switch');
          expect((await drawerSwitch.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
          await drawerSwitch.click();
        } else {
          await page.locator('.ant-layout-header').getByTestId('language-switch').click();
        }
        await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
        await page
          .getByTestId('message-item')
          .filter({ hasText: subject })
          .locator('time', { hasText: /^昨天 / })
          .waitFor();
        expect(await page.title()).toMatch(/^收件箱 - /);
        expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-CN');
      } finally {
        await context.close();
      }
    });
  }
});
