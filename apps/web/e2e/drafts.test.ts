import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DraftItem, PageOf } from '@youju/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createAddress, ok, uniqueName } from './support/api';
import { loginThroughForm } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

/**
 * Issue 17 item 4, drafts on the server and the attachment picker: what is typed is saved as a
 * draft (also when the drawer is closed at once), offered again when compose reopens and after a
 * reload, and gone once sent; attachments are picked with a styled button (the native file input
 * stays hidden), show their progress, 已上传 only at 100 %, and can be removed. On a desktop (a
 * system user choosing From) and on a 375 px phone (a mailbox session).
 */
describe('drafts and attachments in compose, in the browser', () => {
  const suite = setUpBrowserSuite({ env: { QUEUE_POLL_MS: '300' } });
  let domain: string;
  let recipient: string;
  let adminSender: string;
  let mailboxEmail: string;
  const mailboxPassword = 'mailbox-pass-1';
  let fileDir: string;

  beforeAll(async () => {
    domain = `${uniqueName('drafts')}.test`;
    const added = await addDomain(suite.admin, { name: domain });
    adminSender = await createAddress(suite.admin, { domainId: added.id, localPart: 'wangwu' });
    recipient = await createAddress(suite.admin, { domainId: added.id, localPart: 'zhaoliu' });
    mailboxEmail = `qianqi@${domain}`;
    ok(
      await suite.admin.post('/user/createEmailAccount', {
        domainId: added.id,
        localPart: 'qianqi',
        password: mailboxPassword,
      }),
    );
    fileDir = await mkdtemp(join(tmpdir(), 'youju-e2e-drafts-'));
  });
  afterAll(async () => {
    if (fileDir) await rm(fileDir, { recursive: true, force: true });
  });

  async function openCompose(page: Page): Promise<Locator> {
    await page.getByRole('button', { name: /写邮件/ }).click();
    const drawer = page.locator('.ant-drawer-content-wrapper', { hasText: '发件人' });
    await drawer.getByLabel('主题').waitFor();
    return drawer;
  }

  /** Closes with the drawer's × (`corner`) or the 关闭 button beside 发送. */
  async function closeCompose(
    page: Page,
    drawer: Locator,
    how: 'corner' | 'button' = 'button',
  ): Promise<void> {
    await drawer.getByRole('button', { name: how === 'corner' ? '关闭' : '关 闭', exact: true }).click();
    await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);
  }

  /** Opens compose and goes on with the draft titled `subject`. */
  async function resume(page: Page, subject: string): Promise<Locator> {
    const drawer = await openCompose(page);
    const row = drawer.getByTestId('compose-draft').filter({ hasText: subject });
    await row.waitFor();
    await row.getByRole('button', { name: `继续编辑 ${subject}` }).click();
    await expect.poll(() => drawer.getByLabel('主题').inputValue()).toBe(subject);
    return drawer;
  }

  async function drafts(token: string): Promise<DraftItem[]> {
    return ok(await suite.api(token).get<PageOf<DraftItem>>('/user/draftList')).list;
  }

  async function scenario(page: Page, token: string, label: string, from?: string): Promise<void> {
    // Unique per run: a retried test must not find the first attempt's draft.
    const subject = `周报草稿（${label}）${uniqueName('')}`;
    let drawer = await openCompose(page);
    if (from) await drawer.getByLabel('发件人').fill(from);
    const to = drawer.getByLabel('收件人', { exact: true });
    await to.fill(recipient);
    await to.press('Enter');
    await drawer.getByLabel('主题').fill(subject);
    const body = drawer.getByRole('textbox', { name: '正文' });
    await body.click({ position: { x: 12, y: 12 } });
    await page.keyboard.type('本周完成了草稿功能。');
    // Closed at once, before the 2 s autosave: closing saves it.
    await closeCompose(page, drawer, 'corner');
    await expect.poll(async () => (await drafts(token)).map((item) => item.subject)).toContain(subject);

    // Reopened: offered in the 草稿 list, everything restored.
    drawer = await resume(page, subject);
    await expect.poll(() => body.textContent()).toContain('本周完成了草稿功能。');
    expect(await drawer.getByText(recipient).count()).toBeGreaterThan(0);

    // The picker is a styled button; the browser's own file input is never shown.
    const picker = drawer.getByText('点击选择或把文件拖到这里添加附件');
    expect(await picker.isVisible()).toBe(true);
    const input = drawer.locator('input[type="file"]');
    expect(await input.isVisible()).toBe(false);

    // Every text the first attachment's progress shows, as the page renders it.
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
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    const kept = join(fileDir, `方案-${label}.pdf`);
    const keptBytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(768 * 1024)]);
    await writeFile(kept, keptBytes);
    await input.setInputFiles(kept);
    const keptRow = drawer.getByTestId('compose-attachment').filter({ hasText: `方案-${label}.pdf` });
    await keptRow.locator('.ant-progress-indicator', { hasText: '已上传' }).waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const shown = await page.evaluate(() => (window as unknown as { progressShown: string[] }).progressShown);
    // 已上传 comes once, last; before it only percentages below 100.
    expect(shown.at(-1)).toBe('已上传');
    expect(shown.filter((text) => text === '已上传')).toHaveLength(1);
    const percents = shown.slice(0, -1).map((text) => Number(/^(\d+)%$/.exec(text)?.[1] ?? Number.NaN));
    expect(
      percents.every((percent) => percent >= 0 && percent < 100),
      shown.join(', '),
    ).toBe(true);
    expect(percents.filter((percent) => percent > 0).length, shown.join(', ')).toBeGreaterThanOrEqual(2);

    // A second file, removed again with its remove control.
    const dropped = join(fileDir, `多余-${label}.txt`);
    await writeFile(dropped, '不需要的附件');
    await input.setInputFiles(dropped);
    const droppedRow = drawer.getByTestId('compose-attachment').filter({ hasText: `多余-${label}.txt` });
    await droppedRow.locator('.ant-progress-indicator', { hasText: '已上传' }).waitFor();
    await droppedRow.getByRole('button', { name: `移除附件 多余-${label}.txt` }).click();
    await expect.poll(() => droppedRow.count()).toBe(0);

    // Autosave: the status names the time, and the server holds the draft with the one attachment.
    await drawer.getByText(/草稿已保存 \d\d:\d\d/).waitFor({ timeout: 15_000 });
    await expect
      .poll(
        async () => {
          const list = await drafts(token);
          const item = list.find((entry) => entry.subject === subject);
          return item
            ? (
                await suite
                  .api(token)
                  .get<{ attachments: { filename: string }[] }>(`/user/getDraft?id=${item.id}`)
              ).data?.attachments.map((a) => a.filename)
            : [];
        },
        { timeout: 15_000 },
      )
      .toEqual([`方案-${label}.pdf`]);

    // A reload loses nothing: the draft comes back with its attachment.
    await page.reload();
    drawer = await resume(page, subject);
    await expect
      .poll(() => drawer.getByRole('textbox', { name: '正文' }).textContent())
      .toContain('本周完成了草稿功能。');
    const restored = drawer.getByTestId('compose-attachment').filter({ hasText: `方案-${label}.pdf` });
    await restored.locator('.ant-progress-indicator', { hasText: '已上传' }).waitFor();
    expect(await drawer.getByTestId('compose-attachment').count()).toBe(1);

    // Sending removes the draft; the recipient gets the attachment intact.
    await drawer.locator('button[type="submit"]', { hasText: /发\s*送/ }).click();
    await page.getByText('邮件已加入发送队列').first().waitFor();
    expect((await drafts(token)).map((item) => item.subject)).not.toContain(subject);
    drawer = await openCompose(page);
    expect(await drawer.getByTestId('compose-draft').filter({ hasText: subject }).count()).toBe(0);
    await closeCompose(page, drawer);
    await expect
      .poll(
        async () => {
          const inbox = ok(
            await suite.admin.get<{ list: { id: number; subject: string }[] }>(
              `/user/getInbox?address=${encodeURIComponent(recipient)}`,
            ),
          );
          return inbox.list.find((item) => item.subject === subject)?.id;
        },
        { timeout: 30_000 },
      )
      .toBeDefined();
  }

  it('on a desktop: a system user’s draft is saved, restored after close and reload, and gone once sent', async () => {
    const { context, page } = await suite.newPage();
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
      await scenario(page, suite.adminToken, '桌面', adminSender);
    } finally {
      await context.close();
    }
  });

  it('a reload right after typing, before the autosave, keeps what was typed', async () => {
    const login = ok(
      await suite
        .api()
        .post<{ token: string }>('/loginEmail', { email: mailboxEmail, password: mailboxPassword }),
    );
    const page = await suite.openAs(login.token, '/user/inbox');
    try {
      const subject = `刷新前的草稿${uniqueName('')}`;
      const drawer = await openCompose(page);
      await drawer.getByLabel('主题').fill(subject);
      await page.reload();
      await expect
        .poll(async () => (await drafts(login.token)).map((item) => item.subject), { timeout: 10_000 })
        .toContain(subject);
      const resumed = await resume(page, subject);
      await closeCompose(page, resumed);
    } finally {
      await page.context().close();
    }
  });

  it('on a 375 px phone: a mailbox’s draft is saved, restored after close and reload, and gone once sent', async () => {
    const login = ok(
      await suite
        .api()
        .post<{ token: string }>('/loginEmail', { email: mailboxEmail, password: mailboxPassword }),
    );
    const page = await suite.openAs(login.token, '/user/inbox');
    try {
      await page.setViewportSize({ width: 375, height: 740 });
      await scenario(page, login.token, '手机');
      // Nothing of the drawer runs off the side of the phone's screen (a box measures in fractions
      // of a pixel: 375.00001 was seen, which no screen shows).
      const drawer = await openCompose(page);
      const box = await drawer.boundingBox();
      expect(box?.width).toBeLessThanOrEqual(375.5);
    } finally {
      await page.context().close();
    }
  });
});
