import type { PageOf, SysAccount } from '@youju/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createSysAccount, ok, uniqueName } from './support/api';
import { latinWords, menuNames } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

describe('/user/sysAccount', () => {
  const suite = setUpBrowserSuite();

  async function accounts(): Promise<SysAccount[]> {
    return ok(await suite.admin.get<PageOf<SysAccount>>('/admin/getSysAccount?page=1&pageSize=100')).list;
  }

  async function openScreen(): Promise<Page> {
    const page = await suite.openAs(suite.adminToken, '/user/sysAccount');
    await page.getByRole('button', { name: /新建账号/ }).waitFor();
    return page;
  }

  const row = (page: Page, username: string) => page.getByRole('row').filter({ hasText: username });

  it('creates, edits, disables and deletes an account through the screen', async () => {
    const page = await openScreen();
    const username = uniqueName('staff');

    // Create
    await page.getByRole('button', { name: /新建账号/ }).click();
    const createDialog = page.getByRole('dialog');
    await createDialog.getByLabel('用户名').fill(username);
    await createDialog.getByLabel('密码').fill('secret-123');
    await createDialog.getByLabel('域名数量上限').fill('3');
    await createDialog.getByRole('button', { name: /^创\s*建$/ }).click();
    await row(page, username).waitFor();
    let account = (await accounts()).find((item) => item.username === username);
    expect(account).toMatchObject({ role: 'user', enabled: true, maxDomains: 3, maxMailboxes: 0 });
    expect(await row(page, username).textContent()).toContain('不限');
    ok(await suite.api().post('/login', { username, password: 'secret-123' }));

    // Edit: role and mailbox limit
    await row(page, username)
      .getByRole('button', { name: /^编\s*辑$/ })
      .click();
    const editDialog = page.getByRole('dialog');
    await editDialog.getByLabel('邮箱数量上限').fill('5');
    await editDialog.getByLabel('角色').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '管理员' }).click();
    await editDialog.getByRole('button', { name: /^保\s*存$/ }).click();
    await editDialog.waitFor({ state: 'hidden' });
    await row(page, username).getByText('管理员').waitFor();
    account = (await accounts()).find((item) => item.username === username);
    expect(account).toMatchObject({ role: 'admin', maxMailboxes: 5, maxDomains: 3, enabled: true });

    // Disable with the switch
    await row(page, username).getByRole('switch', { checked: true }).click();
    await row(page, username).getByRole('switch', { checked: false }).waitFor();
    account = (await accounts()).find((item) => item.username === username);
    expect(account?.enabled).toBe(false);
    const refused = await suite.api().post('/login', { username, password: 'secret-123' });
    expect(refused.error).not.toBe(0);

    // Delete after confirming
    await row(page, username)
      .getByRole('button', { name: /^删\s*除$/ })
      .click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /^删\s*除$/ })
      .click();
    await row(page, username).waitFor({ state: 'detached' });
    expect((await accounts()).some((item) => item.username === username)).toBe(false);
    await page.context().close();
  });

  it('shows the server message when the name is taken', async () => {
    const username = uniqueName('taken');
    await createSysAccount(suite.admin, {
      username,
      password: 'secret-123',
      role: 'user',
    });
    const page = await openScreen();
    await page.getByRole('button', { name: /新建账号/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('用户名').fill(username);
    await dialog.getByLabel('密码').fill('secret-123');
    await dialog.getByRole('button', { name: /^创\s*建$/ }).click();
    const toast = page.locator('.ant-message-notice').first();
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(await dialog.isVisible()).toBe(true);
    await page.context().close();
  });

  it('pages through the accounts', async () => {
    const prefix = uniqueName('page');
    for (let index = 0; index < 21; index++) {
      await createSysAccount(suite.admin, {
        username: `${prefix}x${index}`,
        password: 'secret-123',
        role: 'user',
      });
    }
    const page = await openScreen();
    const total = (await accounts()).length;
    await page.getByText(`共 ${total} 个账号`).waitFor();
    expect(await page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(20);
    await page.getByRole('listitem', { name: '2' }).click();
    await page.locator('.ant-pagination-item-active').filter({ hasText: '2' }).waitFor();
    await page.waitForFunction(
      (expected) => document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length === expected,
      total - 20,
    );
    await page.context().close();
  });

  it('is in Chinese (user names aside) and shown only to administrators', async () => {
    const page = await openScreen();
    const names = (await accounts()).map((item) => item.username);
    expect(await latinWords(page, names)).toEqual([]);
    await page.context().close();

    const username = uniqueName('plain');
    await createSysAccount(suite.admin, {
      username,
      password: 'secret-123',
      role: 'user',
    });
    const userToken = await suite.login(username, 'secret-123');
    const userPage = await suite.openAs(userToken, '/user');
    await userPage.waitForURL(`${suite.baseUrl}/user/inbox`);
    const menu = await menuNames(userPage);
    expect(menu).toContain('收件箱');
    expect(menu).not.toContain('系统账号');
    await userPage.goto(`${suite.baseUrl}/user/sysAccount`);
    await userPage.getByText('没有权限').waitFor();
    await userPage.context().close();
  });
});
