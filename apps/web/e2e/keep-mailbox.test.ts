import type { Domain } from '@youju/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, uniqueName } from './support/api';
import { setUpBrowserSuite } from './support/suite';

/**
 * Issue 17 item 3, a temporary mailbox you keep: one click shows the address and its credential
 * (copy, 下载凭证), logout asks while the credential is not saved, and /auth's 邮箱登录 brings the
 * mailbox back with address + credential. On a 375 px phone and on a desktop.
 */
describe('a temporary mailbox you keep, in the browser', () => {
  const suite = setUpBrowserSuite();
  let domain: Domain;
  const opened: BrowserContext[] = [];

  beforeAll(async () => {
    domain = await addDomain(suite.admin, { name: `${uniqueName('keep')}.test`, publicRegistration: true });
  });
  afterAll(async () => {
    for (const context of opened) await context.close().catch(() => undefined);
  });

  async function oneClick(
    width: number,
    height: number,
  ): Promise<{ page: Page; email: string; credential: string }> {
    const { context, page } = await suite.newPage();
    opened.push(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.baseUrl });
    await page.setViewportSize({ width, height });
    await page.goto(`${suite.baseUrl}/home`);
    await page.getByRole('button', { name: /一键获取临时邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    const dialog = page.getByRole('dialog').filter({ hasText: '保存你的临时邮箱凭证' });
    await dialog.waitFor();
    const email = ((await page.getByTestId('credential-email').textContent()) ?? '').trim();
    const credential = ((await page.getByTestId('credential-value').textContent()) ?? '').trim();
    expect(email).toMatch(new RegExp(`@${domain.name.replaceAll('.', '\\.')}$`));
    expect(credential).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){4}$/);
    // The credential is never written to storage; only the token and the "not saved yet" flag are.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(credential);
    // The dialog fits the screen: nothing to scroll sideways to read the credential.
    const box = await dialog.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(width);
    return { page, email, credential };
  }

  async function logBackIn(page: Page, email: string, credential: string): Promise<void> {
    await page.waitForURL(`${suite.baseUrl}/auth`);
    await page.getByRole('tab', { name: '邮箱登录' }).click();
    await page.getByLabel('邮箱地址').fill(email);
    await page.getByRole('tabpanel').getByLabel('密码', { exact: true }).fill(credential);
    await page.getByRole('button', { name: /登录邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    await page.getByText('暂无邮件').waitFor();
    // On a phone the account's name is in the menu drawer, opened from the header.
    const menuButton = page.getByTestId('menu-button');
    if (await menuButton.isVisible()) await menuButton.click();
    const currentUser = page.getByTestId('current-user').filter({ visible: true });
    expect(await currentUser.textContent()).toBe(email);
  }

  it('on a 375 px phone: asks at logout until 下载凭证, then logs back in with the credential', async () => {
    const { page, email, credential } = await oneClick(375, 740);
    await page.getByRole('button', { name: '稍后保存' }).click();
    await page.getByRole('button', { name: /退出登录/ }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '凭证尚未保存，确定退出？' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: '先去保存' }).click();
    await page.getByTestId('credential-value').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /下载凭证/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${email}-凭证.txt`);
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(await download.path(), 'utf8');
    expect(text).toContain(email);
    expect(text).toContain(credential);
    expect(text).toContain(`${suite.baseUrl}/auth`);
    await page.getByRole('button', { name: /完\s*成/ }).click();
    // Saved: logout goes straight out.
    await page.getByRole('button', { name: /退出登录/ }).click();
    await logBackIn(page, email, credential);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('on a desktop: 复制 counts as saved, logout does not ask, the credential logs back in', async () => {
    const { page, email, credential } = await oneClick(1280, 800);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /复\s*制$/ })
      .click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(`${email}\n${credential}`);
    await page.getByRole('button', { name: /完\s*成/ }).click();
    await page.getByRole('button', { name: /退出登录/ }).click();
    await logBackIn(page, email, credential);
  });

  it('on a desktop: unsaved after a reload, logout still asks; 仍然退出 leaves, the credential comes back', async () => {
    const { page, email, credential } = await oneClick(1280, 800);
    await page.reload();
    await page.getByTestId('current-user').waitFor();
    await page.getByRole('button', { name: /退出登录/ }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '凭证尚未保存，确定退出？' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(email);
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(`${suite.baseUrl}/user/inbox`);
    await page.getByRole('button', { name: /退出登录/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: '仍然退出' }).click();
    await logBackIn(page, email, credential);
    // Another login forgot the flag: logging out now does not ask.
    await page.getByRole('button', { name: /退出登录/ }).click();
    await page.waitForURL(`${suite.baseUrl}/auth`);
  });
  it('on a phone: the first password is set at /user/setting without the old one, then logs in', async () => {
    const { page, email } = await oneClick(375, 740);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /下载凭证/ })
      .click();
    await page.getByRole('button', { name: /完\s*成/ }).click();
    await page.goto(`${suite.baseUrl}/user/setting`);
    await page.getByLabel('新密码', { exact: true }).fill('my-own-pass-1');
    await page.getByLabel('确认新密码').fill('my-own-pass-1');
    await page.getByRole('button', { name: /保存新密码/ }).click();
    await page.getByText('密码已修改，其他设备上的登录已失效').waitFor();
    await page.getByRole('button', { name: /退出登录/ }).click();
    await logBackIn(page, email, 'my-own-pass-1');
  });
});
