import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './support/build';
import { setUpBrowserSuite } from './support/suite';

/** echarts and its renderer zrender leave these names in their minified code. */
const chartLibraryMarker = /echarts|zrender/;
/**
 * antd's style runtime (@ant-design/cssinjs, which ConfigProvider and every component's style hook
 * bring) names this attribute in its minified code.
 */
const antdRuntimeMarker = /data-token-hash/;

describe('routes', () => {
  const suite = setUpBrowserSuite();

  it('/ redirects to /home', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/`);
    await page.waitForURL(`${suite.baseUrl}/home`);
    await page.getByRole('link', { name: /注册 \/ 登录/ }).waitFor();
    await context.close();
  });

  it('paints the header bar before the scripts arrive, and the page replaces it', async () => {
    // Without scripts: what the HTML alone paints (a slow network's first seconds).
    const bare = await suite.newPage({ javaScriptEnabled: false });
    await bare.page.goto(`${suite.baseUrl}/home`);
    const mark = bare.page.locator('#root .boot-header svg');
    expect(await mark.isVisible()).toBe(true);
    // No text of its own: the site's name and the language are the operator's and the visitor's.
    expect(((await bare.page.locator('#root').textContent()) ?? '').trim()).toBe('');
    await bare.context.close();
    // With them: React draws the page in its place.
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/home`);
    await page.getByRole('link', { name: /注册 \/ 登录/ }).waitFor();
    expect(await page.locator('.boot-shell').count()).toBe(0);
    await context.close();
  });

  it('an unknown path goes to / and on to /home', async () => {
    const { context, page } = await suite.newPage();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto(`${suite.baseUrl}/no/such/page`);
    await page.waitForURL(`${suite.baseUrl}/home`);
    expect(visited[0]).toBe('/no/such/page');
    expect(new URL(page.url()).pathname).toBe('/home');
    await context.close();
  });

  it('/user without a token goes to /auth, and /auth needs no login', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/user`);
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await page.goto(`${suite.baseUrl}/user/sysAccount`);
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await page.getByRole('tab', { name: '系统账号登录' }).waitFor();
    await context.close();
  });

  it('public pages share the navigation and show the store honestly', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/home`);
    await page
      .getByRole('navigation', { name: '站点导航' })
      .getByRole('link', { name: /使用说明/ })
      .click();
    await page.waitForURL(`${suite.baseUrl}/use`);
    await page.getByText('注册或登录').waitFor();
    await page.getByRole('navigation', { name: '站点导航' }).getByRole('link', { name: /商店/ }).click();
    await page.waitForURL(`${suite.baseUrl}/store`);
    await page.getByText('暂无在售的邮箱域名').waitFor();
    await page
      .getByRole('link', { name: /登\s*录/ })
      .first()
      .click();
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await context.close();
  });

  it('shows the progress bar during a navigation and removes it afterwards', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/home`, { waitUntil: 'networkidle' });
    await page.waitForFunction(() => !document.getElementById('nprogress'));
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const present = document.getElementById('nprogress') !== null;
        if (seen.at(-1) !== String(present)) seen.push(String(present));
      }).observe(document.body, { childList: true });
    });
    await page.getByRole('navigation', { name: '站点导航' }).getByRole('link', { name: /商店/ }).click();
    await page.waitForURL(`${suite.baseUrl}/store`);
    await page.waitForFunction(() => !document.getElementById('nprogress'));
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen).toEqual(['true', 'false']);
    await context.close();
  });

  it('the first page loads no chart code; echarts lives in a chunk of its own', async () => {
    const { context, page } = await suite.newPage();
    const scripts: Array<{ url: string; body: string }> = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push({ url: response.url(), body: await response.text() });
      }
    });
    await page.goto(`${suite.baseUrl}/home`, { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: /注册 \/ 登录/ }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    const entry = await page.locator('script[type="module"][src]').getAttribute('src');
    expect(scripts.some((script) => script.url.endsWith(entry ?? '<none>'))).toBe(true);
    for (const script of scripts) expect(script.body, script.url).not.toMatch(chartLibraryMarker);

    // The chart chunk exists in the build, so the check above is not vacuous.
    const assets = join(repositoryRoot, 'apps/web/dist/assets');
    const chartChunks = readdirSync(assets).filter(
      (file) => file.endsWith('.js') && chartLibraryMarker.test(readFileSync(join(assets, file), 'utf8')),
    );
    expect(chartChunks.length).toBeGreaterThan(0);
    await context.close();
  });

  it('/home loads none of antd, and the antd screens still render after it, on a reload too', async () => {
    const { context, page } = await suite.newPage();
    const scripts: Array<{ url: string; body: string }> = [];
    const collect = async (response: Response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push({ url: response.url(), body: await response.text() });
      }
    };
    page.on('response', collect);
    await page.goto(`${suite.baseUrl}/home`, { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: /注册 \/ 登录/ }).waitFor();
    // The language switch works on /home without antd: both ways.
    await page.getByTestId('language-switch').click();
    await page.getByRole('link', { name: /Sign up \/ log in/i }).waitFor();
    await page.getByTestId('language-switch').click();
    await page.getByRole('link', { name: /注册 \/ 登录/ }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script.body, script.url).not.toMatch(antdRuntimeMarker);
    // antd is in the build, so the check above is not vacuous.
    const assets = join(repositoryRoot, 'apps/web/dist/assets');
    const antdChunks = readdirSync(assets).filter(
      (file) => file.endsWith('.js') && antdRuntimeMarker.test(readFileSync(join(assets, file), 'utf8')),
    );
    expect(antdChunks.length).toBeGreaterThan(0);
    // The bodies of later pages' scripts are no longer readable once those pages are left.
    page.off('response', collect);

    // Into the antd screens from /home (a client-side navigation), then full loads of a /user page.
    await page
      .getByRole('link', { name: /登\s*录/ })
      .first()
      .click();
    await page.getByRole('tab', { name: '系统账号登录' }).waitFor();
    await page.evaluate((token) => localStorage.setItem('token', token), suite.adminToken);
    await page.goto(`${suite.baseUrl}/home`);
    await page
      .getByRole('link', { name: /进入邮箱/ })
      .first()
      .click();
    await page.waitForURL(/\/user\//);
    await page.goto(`${suite.baseUrl}/user/interface`);
    await page.locator('.ant-card').filter({ hasText: 'Webhook 推送' }).waitFor();
    await page.reload();
    await page.locator('.ant-card').filter({ hasText: 'Webhook 推送' }).waitFor();
    await context.close();
  });
});
