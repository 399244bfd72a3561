import type { PermissionData, PublicSettings } from '@youju/contract';
import { describe, expect, it } from 'vitest';
import { ok } from './support/api';
import { latinWords, loginThroughForm, menuNames, readStoredJson } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

describe('session: login, stores, expiry, logout', () => {
  const suite = setUpBrowserSuite();

  it('logs in through the form, lands on /user/inbox and sends the bearer token afterwards', async () => {
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    await page.getByText('暂无邮件').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toMatch(/\S{16,}/);

    const authorizations: Array<string | undefined> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/'))
        authorizations.push(request.headers().authorization);
    });
    await page.getByRole('menuitem', { name: /系统账号/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/sysAccount`);
    await page
      .getByRole('cell', { name: new RegExp(suite.server.adminUser) })
      .first()
      .waitFor();
    expect(authorizations.length).toBeGreaterThan(0);
    expect(authorizations).toContain(`Bearer ${token}`);
    await context.close();
  });

  it('mirrors the permission and settings stores in local storage', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/home`, { waitUntil: 'networkidle' });
    const anonymous = {
      permission: await readStoredJson<PermissionData>(page, 'permission_'),
      settings: await readStoredJson<PublicSettings>(page, 'settings_'),
    };
    expect(anonymous.permission).toEqual({ role: 'anonymous', permissions: [] });
    expect(anonymous.settings).toMatchObject({ initialized: true });
    expect(typeof anonymous.settings?.siteName).toBe('string');

    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    const admin = await readStoredJson<PermissionData>(page, 'permission_');
    expect(admin).toMatchObject({ role: 'admin', name: suite.server.adminUser });
    expect(admin?.permissions).toEqual(expect.arrayContaining(['menu:inbox', 'menu:sysAccount']));
    // The menu shows the built screens the permissions allow, each leading to a real screen.
    const menu = await menuNames(page);
    expect(menu[0]).toBe('收件箱');
    expect(menu).toContain('系统账号');
    for (const name of menu) {
      await page
        .getByRole('menuitem')
        .filter({ has: page.getByText(name, { exact: true }) })
        .click();
      await page.locator('.ant-menu-item-selected').filter({ hasText: name }).waitFor();
      await page.locator('.ant-layout-content .ant-card, .ant-layout-content .ant-result').first().waitFor();
      expect(await page.getByText('没有权限').count(), name).toBe(0);
      expect(await page.getByText('页面加载失败').count(), name).toBe(0);
    }
    await context.close();
  });

  it('an invalid token sends the visitor to /auth with the expired-login message', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/home`);
    await page.evaluate(() => localStorage.setItem('token', 'bogus-token-that-the-server-never-issued'));
    await page.goto(`${suite.baseUrl}/user/inbox`);
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await page.getByText('登录状态已过期，请先登录').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('a token revoked on the server is caught by the 302 rule on the next call', async () => {
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    // The inbox calls the API as it opens; let those calls finish with the valid token first.
    await page.getByText('暂无邮件').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    // Revoke the session behind the page's back, then use a screen that calls the API.
    ok(await suite.api(token ?? undefined).get('/user/logout'));
    await page.getByRole('menuitem', { name: /系统账号/ }).click();
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await page.getByText('登录状态已过期，请先登录').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('a wrong password shows the server message in Chinese and stays on /auth', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/auth`);
    await page.getByLabel('用户名', { exact: true }).fill(suite.server.adminUser);
    await page.getByLabel('密码', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    const toast = page.locator('.ant-message-notice').first();
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('logs out: token gone, menus reset, back on /auth', async () => {
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    await page.getByRole('button', { name: /退出登录/ }).click();
    await page.waitForURL(`${suite.baseUrl}/auth`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.waitForFunction(
      () => JSON.parse(localStorage.getItem('permission_') ?? '{}').role === 'anonymous',
    );
    await page.goto(`${suite.baseUrl}/user/inbox`);
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await context.close();
  });

  it('shows /auth in Chinese only', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/auth`, { waitUntil: 'networkidle' });
    for (const tab of ['系统账号登录', '邮箱登录', '注册邮箱']) {
      await page.getByRole('tab', { name: tab }).click();
      expect(await latinWords(page), tab).toEqual([]);
    }
    await context.close();
  });
});
