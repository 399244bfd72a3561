import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setUpBrowserSuite } from './support/suite';

/** The hero and header parts the static first paint (build/home-shell.html) draws, by role. */
async function heroBoxes(page: Page) {
  const parts = {
    siteName: page.getByRole('banner').getByText('邮局', { exact: true }),
    navigation: page.getByRole('navigation', { name: '站点导航' }),
    heading: page.getByRole('heading', { level: 1 }),
    lead: page.getByText('自托管的临时邮箱与托管邮箱服务：注册一个邮箱即可收信'),
    enter: page.getByRole('button', { name: '注册 / 登录' }),
  };
  const boxes: Record<string, { x: number; y: number; width: number; height: number } | null> = {};
  for (const [name, locator] of Object.entries(parts)) boxes[name] = await locator.boundingBox();
  return boxes;
}

async function openWithoutScripts(browser: Browser, url: string) {
  const context = await browser.newContext({
    locale: 'zh-CN',
    javaScriptEnabled: false,
    viewport: { width: 412, height: 823 },
  });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page };
}

describe('/home before its scripts run', () => {
  const suite = setUpBrowserSuite();

  it('/ and /home paint the header and hero from the HTML alone; other routes stay empty', async () => {
    for (const path of ['/home', '/']) {
      const { context, page } = await openWithoutScripts(suite.browser, `${suite.baseUrl}${path}`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('邮局');
      expect(await page.getByRole('link', { name: '注册 / 登录' }).getAttribute('href')).toBe('/auth');
      await context.close();
    }
    for (const path of ['/auth', '/user/inbox', '/store']) {
      const { context, page } = await openWithoutScripts(suite.browser, `${suite.baseUrl}${path}`);
      expect(await page.locator('#root').innerHTML()).toBe('');
      await context.close();
    }
  });

  it('the static paint has the same places as what React renders, so the swap shows no change', async () => {
    const { context: staticContext, page: staticPage } = await openWithoutScripts(
      suite.browser,
      `${suite.baseUrl}/home`,
    );
    const painted = await heroBoxes(staticPage);
    await staticContext.close();

    const context = await suite.browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 412, height: 823 },
    });
    const page = await context.newPage();
    await page.goto(`${suite.baseUrl}/home`);
    // The temporary mailbox card is React's alone: once it shows, the shell has been replaced.
    await page.getByText('临时邮箱', { exact: true }).first().waitFor();
    await expect(
      page.locator('#root section').first().getByRole('heading', { level: 1 }).count(),
    ).resolves.toBe(1);
    const rendered = await heroBoxes(page);
    await context.close();

    for (const name of Object.keys(painted)) {
      expect(painted[name], name).not.toBeNull();
      expect(rendered[name], name).toEqual(painted[name]);
    }
  });
});
