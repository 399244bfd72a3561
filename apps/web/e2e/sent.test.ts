import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createAddress, ok, uniqueName } from './support/api';
import { loginThroughForm } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

/**
 * Compose and sent mail in the browser: compose a Chinese message with an attachment, watch the upload
 * percentage, send, and see it delivered in /user/sent (to a local mailbox, stored by the server's
 * own inbound path).
 */
describe('compose and sent mail in the browser', () => {
  const suite = setUpBrowserSuite({ env: { QUEUE_POLL_MS: '300' } });
  let domain: string;
  let recipient: string;
  let sender: string;
  let fileDir: string;

  beforeAll(async () => {
    domain = `${uniqueName('send')}.test`;
    const added = await addDomain(suite.admin, { name: domain });
    sender = await createAddress(suite.admin, { domainId: added.id, localPart: 'zhangsan' });
    recipient = await createAddress(suite.admin, { domainId: added.id, localPart: 'lisi' });
    fileDir = await mkdtemp(join(tmpdir(), 'youju-e2e-upload-'));
    // What the sender set in /user/setting: the name in From and the signature under the body.
    ok(
      await suite.admin.post('/user/updateSetting', {
        personal: { displayName: '张三', signature: '张三\n市场部' },
      }),
    );
  });
  afterAll(async () => {
    if (fileDir) await rm(fileDir, { recursive: true, force: true });
  });

  it('sends a Chinese message with an attachment and shows it delivered', async () => {
    const { context, page } = await suite.newPage();
    try {
      await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
      await page.locator('.ant-layout-sider').getByRole('menuitem', { name: '已发送' }).click();
      await page.waitForURL(`${suite.baseUrl}/user/sent`);
      // The router renders the next screen in a transition: the inbox, with its own 写邮件 button,
      // can still be on screen when the URL has changed. Wait for the sent list itself.
      await page.getByRole('columnheader', { name: '收件人与投递状态' }).waitFor();
      await page.getByRole('button', { name: /写邮件/ }).click();
      const drawer = page.locator('.ant-drawer-content-wrapper', { hasText: '发件人' });
      await drawer.getByLabel('主题').waitFor();

      // The limits are explained before anything is sent.
      await expect.poll(() => drawer.getByText(/单个附件和整封邮件都不能超过 25\.0 MB/).count()).toBe(1);
      // From starts with one of the caller's own addresses.
      await expect.poll(() => drawer.getByLabel('发件人').inputValue()).toMatch(new RegExp(`@${domain}$`));
      await drawer.getByLabel('发件人').fill(sender);

      // An address that is not one is refused as it is typed.
      const to = drawer.getByLabel('收件人', { exact: true });
      await to.fill('不是地址');
      await to.press('Enter');
      await drawer.getByRole('button', { name: /发\s*送/ }).click();
      await drawer.getByText(/收件人中的地址格式不正确：不是地址/).waitFor();
      await drawer.locator('.ant-select-selection-item-remove').first().click();
      await to.fill(recipient);
      await to.press('Enter');

      await drawer.getByLabel('主题').fill('季度总结：请查收');
      const body = drawer.getByRole('textbox', { name: '正文' });
      await expect.poll(() => body.textContent()).toContain('张三市场部');
      // The first line, above the signature.
      await body.click({ position: { x: 12, y: 12 } });
      await page.keyboard.type('李四你好，');
      await drawer.getByRole('button', { name: '加粗' }).click();
      await page.keyboard.type('附件是季度总结');
      await drawer.getByRole('button', { name: '加粗' }).click();
      await page.keyboard.type('，请查收。');

      // A slow uplink (CDP network emulation) so the percentage can be watched as it grows.
      const attachment = randomBytes(2 * 1024 * 1024);
      const filePath = join(fileDir, '季度总结.pdf');
      await writeFile(filePath, Buffer.concat([Buffer.from('%PDF-1.7\n'), attachment]));
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 512 * 1024,
      });
      // Every text the attachment's progress shows, as the page renders it.
      await page.evaluate(() => {
        const shown: string[] = [];
        (window as unknown as { progressShown: string[] }).progressShown = shown;
        new MutationObserver(() => {
          const indicator = document.querySelector(
            '[data-testid="compose-attachment"] .ant-progress-indicator',
          );
          if (indicator?.textContent && indicator.textContent !== shown.at(-1))
            shown.push(indicator.textContent);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await drawer.locator('input[type="file"]').setInputFiles(filePath);
      const row = drawer.getByTestId('compose-attachment');
      await row.locator('.ant-progress-indicator', { hasText: '已上传' }).waitFor({ timeout: 60_000 });
      const shown = await page.evaluate(
        () => (window as unknown as { progressShown: string[] }).progressShown,
      );
      const seen = new Set(shown.flatMap((text) => /(\d+)%/.exec(text)?.slice(1).map(Number) ?? []));
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      expect(await row.locator('.ant-progress-indicator').textContent({ timeout: 5_000 })).toBe('已上传');
      const between = [...seen].filter((percent) => percent > 0 && percent < 100);
      expect(between.length, `percentages seen: ${[...seen].join(', ')}`).toBeGreaterThanOrEqual(3);
      expect(between).toEqual([...between].sort((a, b) => a - b));
      await row.getByText('季度总结.pdf').waitFor();

      await drawer.getByRole('button', { name: /发\s*送/ }).click();
      await page.getByText('邮件已加入发送队列').waitFor();

      // The list follows the queue until the recipient's tag says 已送达.
      const listRow = page.locator('.ant-table-row', { hasText: '季度总结：请查收' });
      await listRow.waitFor();
      await listRow.locator('[data-status="delivered"]', { hasText: '已送达' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => listRow.textContent()).toContain(recipient);

      // The detail view shows what was written.
      await listRow.getByRole('button', { name: /查\s*看/ }).click();
      const detail = page.locator('.ant-drawer-content-wrapper', { hasText: '投递状态' });
      await detail.getByText('季度总结.pdf').waitFor();
      const frame = page.frameLocator('iframe[title="邮件正文"]');
      await frame.locator('b', { hasText: '附件是季度总结' }).waitFor();

      // The recipient got it, attachment intact.
      const inbox = ok(
        await suite.admin.get<{ list: { id: number; subject: string }[] }>(
          `/user/getInbox?address=${encodeURIComponent(recipient)}`,
        ),
      );
      expect(inbox.list[0]?.subject).toBe('季度总结：请查收');
      const mail = ok(
        await suite.admin.get<{
          text: string;
          from: { name: string; address: string };
          attachments: { filename: string; contentType: string; size: number }[];
        }>(`/user/getEmail?id=${inbox.list[0]?.id}`),
      );
      expect(mail.text).toContain('李四你好，附件是季度总结，请查收。');
      expect(mail.text.indexOf('市场部')).toBeGreaterThan(mail.text.indexOf('请查收。'));
      expect(mail.from).toEqual({ name: '张三', address: sender });
      expect(mail.attachments).toEqual([
        expect.objectContaining({
          filename: '季度总结.pdf',
          contentType: 'application/pdf',
          size: attachment.length + 9,
        }),
      ]);
    } finally {
      await context.close();
    }
  });
});
