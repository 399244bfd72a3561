import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';
import { onTestFailed } from 'vitest';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A phone: 375 × 812 CSS pixels (an iPhone's width), touch, mobile viewport rules. */
export const phoneViewport: BrowserContextOptions = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/**
 * A fresh context (own local storage) per test, Chinese like the users it serves; `options` set the
 * device (e.g. `phoneViewport`). When the test
 * fails, what the page went through is printed: its navigations, script errors, console errors and
 * failed API answers, then where it ended and what it showed, so that a failure seen once in CI
 * can be understood afterwards.
 */
export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai', ...options });
  const page = await context.newPage();
  const started = Date.now();
  const events: string[] = [];
  const note = (line: string) => events.push(`+${Date.now() - started} ms ${line}`);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.stack ?? error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      note(`console ${message.type()}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400)
      note(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  // What the page showed when the test ended: taken when a test closes its context (in `finally`,
  // before failure handlers run), or else when the failure is reported (the page still open).
  let shown = '';
  let tree = '';
  let captured = false;
  const capture = async () => {
    if (captured) return;
    captured = true;
    shown = await page
      // biome-ignore lint/performance/useDomNodeTextContent: what the screen showed is the point
      .evaluate(() => document.body.innerText.slice(0, 3_000))
      .catch(() => '（页面已关闭）');
    // The accessibility tree as role locators see it: names, states (a button that is loading or
    // disabled), and what a dialog or an inert region hides from them.
    tree = await page
      .locator('body')
      .ariaSnapshot({ timeout: 2_000 })
      .then((snapshot) => snapshot.slice(0, 4_000))
      .catch(() => '（无法读取）');
    note(`ended at ${page.url()}`);
  };
  const close = context.close.bind(context);
  context.close = async (options) => {
    await capture();
    return close(options);
  };
  onTestFailed(async () => {
    await capture();
    console.error(
      [
        'page log of the failed test:',
        ...events,
        'the page showed:',
        shown,
        'its accessibility tree:',
        tree,
      ].join('\n'),
    );
  });
  return { context, page };
}

/** Logs in through the 系统账号登录 form and waits for the inbox. */
export async function loginThroughForm(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel('用户名', { exact: true }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await page.waitForURL(`${baseUrl}/user/inbox`);
}

/** Names in the /user side menu, once it has rendered. */
export async function menuNames(page: Page): Promise<string[]> {
  const items = page.locator('.ant-layout-sider').getByRole('menuitem');
  await items.first().waitFor();
  return (await items.allInnerTexts()).map((text) => text.trim());
}

/**
 * Stores a login token the way the client does (a returning visitor), then opens `path`. The token
 * is written from the site's icon, the smallest document of its origin: loading the app there first
 * cost the browser as much as the screen itself.
 */
export async function openWithToken(page: Page, baseUrl: string, token: string, path: string): Promise<void> {
  await storeToken(page, baseUrl, token);
  await page.goto(`${baseUrl}${path}`);
}

/** Stores a login token as the client does, from the site's icon (see `openWithToken`). */
export async function storeToken(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/favicon.svg`);
  await page.evaluate((value) => localStorage.setItem('token', value), token);
}

/** What the client keeps in local storage under `key`, parsed from JSON (null when absent). */
export async function readStoredJson<T>(page: Page, key: string): Promise<T | null> {
  const text = await page.evaluate((name) => localStorage.getItem(name), key);
  return text === null ? null : (JSON.parse(text) as T);
}

/**
 * Words written in Latin letters that the screen shows. Brand names and data values (user names the
 * test created) are passed in `allowed` and removed from the text first; so is the language switch's
 * "English", which names that language in its own words on a Chinese screen.
 */
export async function latinWords(page: Page, allowed: readonly string[] = []): Promise<string[]> {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point; hidden nodes are not on the screen
  let text = await page.locator('body').innerText();
  const switchLabel = await page.getByTestId('language-switch').allInnerTexts();
  for (const value of [...allowed, ...switchLabel.map((label) => label.trim()).filter(Boolean)].sort(
    (a, b) => b.length - a.length,
  ))
    text = text.split(value).join(' ');
  return text.match(/[A-Za-z]{2,}/g) ?? [];
}

/** Waits until the screen has drawn its data: no skeleton, no spinner, two frames later. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('.ant-skeleton, .ant-spin-spinning, #nprogress'),
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Opens `path` the way the app's own links do: the router renders it in the page already loaded,
 * without loading the page again (a full load costs the browser about two seconds of CPU here). A
 * page that does not show the app yet loads it. For tests that go through many screens; what a
 * screen does when its address is opened directly is the routing test's (routing.test.ts).
 */
export async function navigate(page: Page, baseUrl: string, path: string): Promise<void> {
  const showsApp =
    new URL(page.url()).origin === new URL(baseUrl).origin &&
    (await page.evaluate(() => document.getElementById('root') !== null));
  if (!showsApp) {
    await page.goto(`${baseUrl}${path}`);
    return;
  }
  // What the browser does on Back and Forward: the router follows the address (popstate).
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}
