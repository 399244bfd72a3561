import type { LoginEmailData } from '@youju/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDomain, ok, uniqueName } from './support/api';
import { latinWords, menuNames } from './support/browser';
import { freePort } from './support/server';
import { setUpBrowserSuite } from './support/suite';

const HOST = 'mail.e2e.test';

/**
 * 客户端设置 in the browser: a mailbox user sees its server, ports, security and user name with copy
 * buttons and downloads the Apple profile, on a phone (375 px) and a desktop; a system user reaches
 * the same screen for one address from the 邮箱账号 list.
 */
describe('client settings screen', () => {
  let submissionPort = 0;
  const suite = setUpBrowserSuite(async () => {
    submissionPort = await freePort();
    // IMAP on too: the Apple profile needs an incoming server (the suite's servers start with it off).
    const imapPort = await freePort();
    return {
      env: { MAIL_HOSTNAME: HOST, SUBMISSION_PORT: String(submissionPort), IMAP_PORT: String(imapPort) },
    };
  });
  let address: string;
  let mailboxToken: string;

  beforeAll(async () => {
    const domain = await addDomain(suite.admin, { name: `${uniqueName('cs')}.test` });
    address = `zhangsan@${domain.name}`;
    ok(
      await suite.admin.post('/user/createEmailAccount', {
        domainId: domain.id,
        localPart: 'zhangsan',
        password: 'mailbox-pass-1',
      }),
    );
    mailboxToken = ok(
      await suite.api().post<LoginEmailData>('/loginEmail', { email: address, password: 'mailbox-pass-1' }),
    ).token;
  });

  async function checkScreen(page: Page) {
    await page.getByText('客户端设置', { exact: true }).first().waitFor();
    const smtp = page.getByTestId(`server-smtp-${submissionPort}`);
    await smtp.waitFor();
    expect(await smtp.textContent()).toContain(HOST);
    expect(await smtp.textContent()).toContain('STARTTLS');
    await expect.poll(() => page.getByText(address, { exact: true }).count()).toBeGreaterThan(0);
    await page.getByText('与网页登录邮箱时使用的密码相同').waitFor();
  }

  it('shows a mailbox user its settings on a desktop, copies, and downloads the Apple profile', async () => {
    const { context, page } = await suite.newPage();
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.baseUrl });
      await page.goto(`${suite.baseUrl}/home`);
      await page.evaluate((value) => localStorage.setItem('token', value), mailboxToken);
      await page.goto(`${suite.baseUrl}/user/inbox`);
      expect(await menuNames(page)).toContain('客户端设置');
      await page.locator('.ant-layout-sider').getByRole('menuitem', { name: '客户端设置' }).click();
      await page.waitForURL(`${suite.baseUrl}/user/clientSettings`);
      await checkScreen(page);
      // Chinese throughout: Latin letters only in data, protocol and product names.
      const origin = suite.baseUrl;
      expect(
        await latinWords(page, [
          address,
          HOST,
          `${origin}/.well-known/autoconfig/mail/config-v1.1.xml`,
          `${origin}/autodiscover/autodiscover.xml`,
          'admin',
          ...['IMAP', 'POP3', 'SMTP', 'STARTTLS', 'SSL/TLS', 'Foxmail', 'Thunderbird', 'Outlook'],
          ...['Apple', 'iPhone', 'iPad', 'Mac', 'autoconfig', 'autodiscover', 'Youju'],
        ]),
      ).toEqual([]);

      // The port's copy button puts exactly the port on the clipboard.
      await page
        .getByTestId(`server-smtp-${submissionPort}`)
        .getByRole('button', { name: '复制端口' })
        .click();
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()))
        .toBe(String(submissionPort));

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /下载 Apple 描述文件/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${address}.mobileconfig`);
      const path = await download.path();
      const { readFile } = await import('node:fs/promises');
      const profile = await readFile(path, 'utf8');
      expect(profile).toContain('<string>com.apple.mail.managed</string>');
      expect(profile).toContain(`<integer>${submissionPort}</integer>`);
      expect(profile).toContain(`<string>${address}</string>`);
    } finally {
      await context.close();
    }
  });

  it('fits a 375 px phone screen', async () => {
    const { context, page } = await suite.newPage();
    try {
      await page.setViewportSize({ width: 375, height: 740 });
      await page.goto(`${suite.baseUrl}/home`);
      await page.evaluate((value) => localStorage.setItem('token', value), mailboxToken);
      await page.goto(`${suite.baseUrl}/user/clientSettings`);
      await checkScreen(page);
      // Nothing wider than the screen: no sideways scrolling to read a port.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const box = await page.getByTestId(`server-smtp-${submissionPort}`).boundingBox();
      expect(box?.width).toBeLessThanOrEqual(375);
      await page.getByRole('button', { name: /下载 Apple 描述文件/ }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('takes a system user from 邮箱账号 to the settings of that address', async () => {
    const page = await suite.openAs(suite.adminToken, '/user/emailAccount');
    try {
      const row = page.locator('tr', { hasText: address });
      await row.getByRole('link', { name: '客户端设置' }).click();
      await page.waitForURL(`${suite.baseUrl}/user/clientSettings?address=${encodeURIComponent(address)}`);
      await checkScreen(page);
    } finally {
      await page.context().close();
    }
  });
});
