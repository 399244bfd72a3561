import type { ForwardSetting, LoginEmailData } from '@youju/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDomain, ok, uniqueName } from './support/api';
import { latinWords, menuNames } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

/**
 * 邮件转发 in the browser: a mailbox user sets its own forwarding (checks in the form, the server's
 * refusal of a local address shown, keepCopy off saved); a system user reaches the same screen for
 * one address from the 邮箱账号 list and removes it.
 */
describe('forwarding screen', () => {
  const suite = setUpBrowserSuite();
  let domainName: string;
  let address: string;
  let mailboxToken: string;

  beforeAll(async () => {
    const domain = await addDomain(suite.admin, { name: `${uniqueName('fw')}.test` });
    domainName = domain.name;
    address = `lisi@${domain.name}`;
    ok(
      await suite.admin.post('/user/createEmailAccount', {
        domainId: domain.id,
        localPart: 'lisi',
        password: 'mailbox-pass-1',
      }),
    );
    mailboxToken = ok(
      await suite.api().post<LoginEmailData>('/loginEmail', { email: address, password: 'mailbox-pass-1' }),
    ).token;
  });

  /**
   * The form's submit button, found by what it is rather than by its accessible name: antd names
   * it "保 存", and "loading 保 存" while a save is in flight.
   */
  const saveButton = (page: Page) => page.locator('form#forward button[type="submit"]');

  async function forwardOf(token: string): Promise<ForwardSetting> {
    return ok(
      await suite.api(token).get<ForwardSetting>(`/user/getForward?address=${encodeURIComponent(address)}`),
    );
  }

  it('lets a mailbox user set its own forwarding from the menu', async () => {
    const page = await suite.openAs(mailboxToken, '/user/inbox');
    try {
      expect(await menuNames(page)).toContain('邮件转发');
      await page.locator('.ant-layout-sider').getByRole('menuitem', { name: '邮件转发' }).click();
      await page.waitForURL(`${suite.baseUrl}/user/forward`);
      await page.getByText('未设置', { exact: true }).waitFor();

      const input = page.getByLabel('转发到');
      await input.fill('not an address');
      await saveButton(page).click();
      await page.getByText('请输入完整的邮箱地址，例如 name@example.com').waitFor();

      // The server refuses this service's own addresses; its reason is shown.
      await input.fill(`someone@${domainName}`);
      await saveButton(page).click();
      const error = page.getByTestId('forward-error');
      await error.waitFor();
      expect(await error.textContent()).toContain('本站的地址');

      await input.fill('lisi-home@example.net');
      await page.getByRole('checkbox', { name: '在本站保留一份副本' }).uncheck();
      await saveButton(page).click();
      await page.getByText('转发中', { exact: true }).waitFor();
      expect(await forwardOf(mailboxToken)).toMatchObject({
        forwardTo: 'lisi-home@example.net',
        enabled: true,
        keepCopy: false,
      });
      expect(
        await latinWords(page, [
          address,
          'lisi-home@example.net',
          `someone@${domainName}`,
          'name@example.com',
        ]),
      ).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('takes a system user from 邮箱账号 to the forwarding of that address, and removes it', async () => {
    // Independent of the test before: the forwarding it sets is made here through the API.
    ok(
      await suite.admin.post('/user/setForward', {
        address,
        forwardTo: 'lisi-home@example.net',
        enabled: true,
        keepCopy: false,
      }),
    );
    const page = await suite.openAs(suite.adminToken, '/user/emailAccount');
    try {
      const row = page.locator('tr', { hasText: address });
      await row.getByRole('link', { name: '邮件转发' }).click();
      await page.waitForURL(`${suite.baseUrl}/user/forward?address=${encodeURIComponent(address)}`);
      await page.getByText('转发中', { exact: true }).waitFor();
      await expect.poll(() => page.getByLabel('转发到').inputValue()).toBe('lisi-home@example.net');

      await page.getByRole('button', { name: '取消转发' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: '取消转发' }).click();
      await page.getByText('未设置', { exact: true }).waitFor();
      expect((await forwardOf(suite.adminToken)).forwardTo).toBeNull();
    } finally {
      await page.context().close();
    }
  });
});
