import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddDomainBody, PermissionData, PublicSettings } from '@youju/contract';
import { describe, expect, it } from 'vitest';
import { addDomain, uniqueName } from './support/api';
import { latinWords, menuNames, readStoredJson } from './support/browser';
import { startServer } from './support/server';
import { setUpBrowserSuite } from './support/suite';

describe('mailboxes, store and first-run set-up', () => {
  const suite = setUpBrowserSuite();

  /** A new domain with these settings; its name. */
  async function addMailboxDomain(fields: Omit<AddDomainBody, 'name'>): Promise<string> {
    return (await addDomain(suite.admin, { name: `${uniqueName('d')}.test`, ...fields })).name;
  }

  it('registers a temporary mailbox without password and shows only its menus', async () => {
    const domain = await addMailboxDomain({ publicRegistration: true });
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/auth`);
    await page.getByRole('tab', { name: '注册邮箱' }).click();
    await page.getByText('不设置密码将得到临时邮箱').waitFor();
    await page.getByLabel('域名').click();
    await page.locator('.ant-select-item-option').filter({ hasText: domain }).click();
    const localPart = uniqueName('temp');
    await page.getByLabel('邮箱前缀').fill(localPart);
    await page.getByRole('button', { name: /注册邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    await page.getByText('暂无邮件').waitFor();
    await page.getByText('邮箱用户').waitFor();
    expect(await page.getByTestId('current-user').textContent()).toBe(`${localPart}@${domain}`);
    const menu = await menuNames(page);
    expect(menu).toContain('收件箱');
    expect(menu).not.toContain('系统账号');
    const permission = await readStoredJson<PermissionData>(page, 'permission_');
    expect(permission?.role).toBe('mailbox');
    await context.close();
  });

  it('registers a mailbox with a password and logs in with it', async () => {
    const domain = await addMailboxDomain({ publicRegistration: true });
    const localPart = uniqueName('mb');
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/auth`);
    await page.getByRole('tab', { name: '注册邮箱' }).click();
    await page.getByLabel('域名').click();
    await page.locator('.ant-select-item-option').filter({ hasText: domain }).click();
    await page.getByLabel('邮箱前缀').fill(localPart);
    await page.getByRole('tabpanel').getByLabel('密码', { exact: true }).fill('mailbox-123');
    await page.getByRole('button', { name: /注册邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    await page.getByRole('button', { name: /退出登录/ }).click();
    await page.waitForURL(`${suite.baseUrl}/auth`);

    await page.getByRole('tab', { name: '邮箱登录' }).click();
    await page.getByLabel('邮箱地址').fill(`${localPart}@${domain}`);
    await page.getByRole('tabpanel').getByLabel('密码', { exact: true }).fill('mailbox-123');
    await page.getByRole('button', { name: /登录邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    expect(await page.getByTestId('current-user').textContent()).toBe(`${localPart}@${domain}`);
    await context.close();
  });

  it('lists domains for sale in yuan, each with a buy button', async () => {
    const domain = await addMailboxDomain({ forSale: true, price: 1250 });
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/store`);
    const card = page.locator('.ant-col .ant-card').filter({ hasText: domain });
    await card.waitFor();
    expect(await card.textContent()).toContain('12.50');
    expect(await card.textContent()).toContain('元');
    expect(await card.getByRole('button', { name: /购\s*买/ }).count()).toBe(1);
    expect(await latinWords(page, [domain])).toEqual([]);
    await context.close();
  });

  it('a fresh install offers the 初始化 tab and creates the first administrator', async () => {
    const fresh = await startServer({ initialAdmin: false });
    try {
      const { context, page } = await suite.newPage();
      await page.goto(`${fresh.baseUrl}/auth`);
      await page.getByRole('tab', { name: '初始化' }).waitFor();
      await page.getByText('setup-token').first().waitFor();
      const setupToken = (await readFile(join(fresh.dataDir, 'setup-token'), 'utf8')).trim();
      await page.getByLabel('初始化令牌').fill(setupToken);
      await page.getByLabel('管理员用户名').fill('founder');
      await page.getByLabel('密码', { exact: true }).fill('founder-123');
      await page.getByLabel('确认密码').fill('founder-123');
      await page.getByRole('button', { name: /完成初始化/ }).click();
      await page.waitForURL(`${fresh.baseUrl}/user/inbox`);
      await page.getByRole('menuitem', { name: /系统账号/ }).waitFor();
      const settings = await readStoredJson<PublicSettings>(page, 'settings_');
      expect(settings?.initialized).toBe(true);
      await context.close();
    } finally {
      await fresh.stop();
    }
  });
});
