import type { Domain, MailItem, PageOf, UnreadData } from '@youju/contract';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createAddress, ok, uniqueName } from './support/api';
import { phoneViewport } from './support/browser';
import { sendSmtp } from './support/smtp';
import { setUpBrowserSuite } from './support/suite';

// The inbox's bulk actions, delete with undo, mark all read and keyboard shortcuts, on a desktop
// (1280 × 800) and a phone (375 × 812, touch).

const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/** The undo time of the client (use-undoable-delete.ts) and some room for the request after it. */
const UNDO_WINDOW_MS = 5_000;

function message(to: string, subject: string): Buffer {
  return Buffer.from(
    [
      `Message-ID: <${uniqueName('m')}@e2e.test>`,
      `Date: ${new Date().toUTCString()}`,
      'From: Sender <sender@e2e.test>',
      `To: ${to}`,
      `Subject: ${subject}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8',
      '',
      `body of ${subject}`,
    ].join('\r\n'),
  );
}

describe('inbox bulk actions, undo and shortcuts in the browser', () => {
  const suite = setUpBrowserSuite();
  let domain: Domain;

  beforeAll(async () => {
    domain = await addDomain(suite.admin, { name: `${uniqueName('bulk')}.test`, publicRegistration: true });
  });

  /** A new address with `count` messages, subjects `<tag> 1` (oldest) … `<tag> <count>` (newest). */
  async function addressWithMail(count: number): Promise<{ address: string; subjects: string[] }> {
    const address = await createAddress(suite.admin, { domainId: domain.id, localPart: uniqueName('box') });
    const tag = uniqueName('s');
    const subjects: string[] = [];
    for (let i = 1; i <= count; i++) {
      const subject = `${tag} ${i}`;
      const reply = await sendSmtp(
        suite.server.smtpPort,
        'sender@e2e.test',
        address,
        message(address, subject),
      );
      expect(reply).toMatch(/^250/);
      subjects.push(subject);
    }
    return { address, subjects };
  }

  async function serverInbox(address: string): Promise<PageOf<MailItem>> {
    return ok(await suite.admin.get<PageOf<MailItem>>(`/user/getInbox?pageSize=100&address=${address}`));
  }
  async function serverSubjects(address: string): Promise<string[]> {
    return (await serverInbox(address)).list.map((item) => item.subject).sort();
  }
  async function unreadOf(address: string): Promise<number> {
    return ok(await suite.admin.get<UnreadData>('/user/getUnreadEmail')).byAddress[address] ?? 0;
  }

  /** The administrator's inbox showing `address`, with its `count` rows drawn. */
  async function openInbox(address: string, count: number, device = desktop): Promise<Page> {
    const page = await suite.openAs(suite.adminToken, '/user/inbox', device);
    await pickAddress(page, address);
    await expect.poll(() => page.getByTestId('message-item').count(), { timeout: 10_000 }).toBe(count);
    return page;
  }

  /** A button of the bulk bar, by its accessible name. */
  function bulkButton(page: Page, name: string) {
    return page.getByTestId('bulk-toolbar').getByRole('button', { name, exact: true });
  }

  /** Shows `address` by typing it into the address picker (its list is virtual: long lists scroll). */
  async function pickAddress(page: Page, address: string): Promise<void> {
    await page.getByLabel('邮箱地址').click();
    await page.getByLabel('邮箱地址').fill(address);
    await page.locator('.ant-select-item-option').filter({ hasText: address }).click();
  }

  function row(page: Page, subject: string) {
    return page.getByTestId('message-item').filter({ hasText: subject });
  }
  async function shownSubjects(page: Page): Promise<string[]> {
    return (await page.getByTestId('message-subject').allInnerTexts()).sort();
  }

  describe('desktop', () => {
    it('selects all (through the in-between state), marks read and unread, and the counts follow', async () => {
      const { address, subjects } = await addressWithMail(3);
      const page = await openInbox(address, 3);
      expect(await unreadOf(address)).toBe(3);

      // One checked: the select-all box is in between; the row is checked, not opened.
      await row(page, subjects[0] as string)
        .getByTestId('message-check')
        .click();
      await page.getByTestId('bulk-count').filter({ hasText: '已选 1 封' }).waitFor();
      expect(await page.locator('.inbox-bulk-bar .ant-checkbox-indeterminate').count()).toBe(1);
      expect(page.url()).not.toContain('id=');

      await page.getByTestId('select-all').click();
      await page.getByTestId('bulk-count').filter({ hasText: '已选 3 封' }).waitFor();
      await bulkButton(page, '标为已读').click();
      await expect
        .poll(() => page.locator('[data-testid="message-item"][data-unread="true"]').count())
        .toBe(0);
      expect(await unreadOf(address)).toBe(0);

      await bulkButton(page, '标为未读').click();
      await expect
        .poll(() => page.locator('[data-testid="message-item"][data-unread="true"]').count())
        .toBe(3);
      expect(await unreadOf(address)).toBe(3);

      await bulkButton(page, '加星标').click();
      await expect
        .poll(async () => (await serverInbox(address)).list.filter((m) => m.starred).length)
        .toBe(3);
      await bulkButton(page, '取消星标').click();
      await expect
        .poll(async () => (await serverInbox(address)).list.filter((m) => m.starred).length)
        .toBe(0);

      // Unchecking all hides the actions again.
      await page.getByTestId('select-all').click();
      await expect.poll(() => page.getByTestId('bulk-count').count()).toBe(0);
      await page.context().close();
    });

    it('deletes several at once, brings them back with 撤销, and the server never lost them', async () => {
      const { address, subjects } = await addressWithMail(3);
      const page = await openInbox(address, 3);
      for (const subject of subjects.slice(0, 2))
        await row(page, subject).getByTestId('message-check').click();
      await bulkButton(page, '删除').click();
      await page.getByTestId('undo-bar').filter({ hasText: '已删除 2 封' }).waitFor();
      expect(await shownSubjects(page)).toEqual([subjects[2]]);
      await page.getByTestId('undo-delete').click();
      await expect.poll(() => shownSubjects(page)).toEqual([...subjects].sort());
      // Past the undo time nothing is deleted after all.
      await page.waitForTimeout(UNDO_WINDOW_MS + 1_000);
      expect(await serverSubjects(address)).toEqual([...subjects].sort());
      await page.reload();
      await pickAddress(page, address);
      await expect.poll(() => page.getByTestId('message-item').count()).toBe(3);
      await page.context().close();
    });

    it('deletes for good once the undo time is up: gone after a reload', async () => {
      const { address, subjects } = await addressWithMail(3);
      const page = await openInbox(address, 3);
      await row(page, subjects[1] as string)
        .getByTestId('message-check')
        .click();
      await bulkButton(page, '删除').click();
      await page.getByTestId('undo-bar').waitFor();
      // Still on the server while 撤销 is offered.
      expect(await serverSubjects(address)).toHaveLength(3);
      await page.getByTestId('undo-bar').waitFor({ state: 'detached', timeout: UNDO_WINDOW_MS + 5_000 });
      await expect.poll(() => serverSubjects(address)).toEqual([subjects[0], subjects[2]].sort());
      await page.reload();
      await pickAddress(page, address);
      await expect.poll(() => shownSubjects(page)).toEqual([subjects[0], subjects[2]].sort());
      await page.context().close();
    });

    it('a second delete sends the first at once; 撤销 then brings back only the second', async () => {
      const { address, subjects } = await addressWithMail(3);
      const page = await openInbox(address, 3);
      await row(page, subjects[0] as string)
        .getByTestId('message-check')
        .click();
      await bulkButton(page, '删除').click();
      await page.getByTestId('undo-bar').waitFor();
      await row(page, subjects[1] as string)
        .getByTestId('message-check')
        .click();
      await bulkButton(page, '删除').click();
      await expect.poll(() => serverSubjects(address)).toEqual([subjects[1], subjects[2]].sort());
      await page.getByTestId('undo-delete').click();
      await expect.poll(() => shownSubjects(page)).toEqual([subjects[1], subjects[2]].sort());
      await page.waitForTimeout(UNDO_WINDOW_MS + 1_000);
      expect(await serverSubjects(address)).toEqual([subjects[1], subjects[2]].sort());
      await page.context().close();
    });

    it('sends a waiting deletion when the page is left, and when the inbox is left for another screen', async () => {
      const { address, subjects } = await addressWithMail(3);
      const page = await openInbox(address, 3);
      await row(page, subjects[0] as string)
        .getByTestId('message-check')
        .click();
      await bulkButton(page, '删除').click();
      await page.getByTestId('undo-bar').waitFor();
      // Another screen of the app (the side menu): the inbox unmounts and sends it.
      await page.locator('.ant-layout-sider').getByRole('menuitem', { name: '已发送' }).click();
      await page.waitForURL(/\/user\/sent/);
      await expect
        .poll(() => serverSubjects(address), { timeout: 4_000 })
        .toEqual([subjects[1], subjects[2]].sort());

      await page.goBack();
      await pickAddress(page, address);
      await expect.poll(() => page.getByTestId('message-item').count()).toBe(2);
      await row(page, subjects[1] as string)
        .getByTestId('message-check')
        .click();
      await bulkButton(page, '删除').click();
      await page.getByTestId('undo-bar').waitFor();
      // The page itself is left (another site): pagehide sends it with keepalive.
      await page.goto('about:blank');
      await expect.poll(() => serverSubjects(address), { timeout: 4_000 }).toEqual([subjects[2]]);
      await page.context().close();

      // The tab is closed while 撤销 is offered: the deletion still reaches the server.
      const again = await openInbox(address, 1);
      await row(again, subjects[2] as string)
        .getByTestId('message-check')
        .click();
      await bulkButton(again, '删除').click();
      await again.getByTestId('undo-bar').waitFor();
      const context = again.context();
      await again.close({ runBeforeUnload: true });
      await expect.poll(() => serverSubjects(address), { timeout: 4_000 }).toEqual([]);
      await context.close();
    });

    it('marks all of one address read from the header and another from its entry in the address list', async () => {
      const first = await addressWithMail(2);
      const second = await addressWithMail(2);
      const page = await openInbox(first.address, 2);
      await page.getByRole('button', { name: '全部标为已读', exact: true }).click();
      await expect
        .poll(() => page.locator('[data-testid="message-item"][data-unread="true"]').count())
        .toBe(0);
      expect(await unreadOf(first.address)).toBe(0);
      expect(await unreadOf(second.address)).toBe(2);

      // (away from the button, whose tooltip would cover the address picker). Under load the mouse
      // could leave while the button was still loading, and the tooltip missed that leave: hover it
      // again once it is idle, then leave.
      const markAll = page.getByRole('button', { name: '全部标为已读', exact: true });
      await expect.poll(() => markAll.getAttribute('class')).not.toContain('ant-btn-loading');
      await markAll.hover();
      await page.mouse.move(640, 780);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.getByRole('tooltip').filter({ hasText: '全部标为已读' }).waitFor({ state: 'hidden' });
      await page.getByLabel('邮箱地址').click();
      await page.getByLabel('邮箱地址').fill(second.address);
      await page.getByRole('button', { name: `将 ${second.address} 全部标为已读` }).click();
      await expect.poll(() => unreadOf(second.address)).toBe(0);
      // The list still shows the first address: marking the other did not pick it.
      await page.keyboard.press('Escape');
      expect(await page.getByTestId('message-item').count()).toBe(2);
      expect(await shownSubjects(page)).toEqual([...first.subjects].sort());
      await page.context().close();
    });

    it('answers j, k, x, #, / and ? and leaves typing alone', async () => {
      const { address, subjects } = await addressWithMail(3);
      const newestFirst = [...subjects].reverse();
      const page = await openInbox(address, 3);
      const pane = page.getByTestId('reader-pane');
      const openSubject = () => pane.getByTestId('reader-subject').textContent();

      // The focus leaves the address picker, as when the person clicks somewhere in the page.
      const blur = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await blur();
      await page.keyboard.press('j');
      await expect.poll(openSubject, { timeout: 10_000 }).toBe(newestFirst[0]);
      await page.keyboard.press('j');
      await expect.poll(openSubject, { timeout: 10_000 }).toBe(newestFirst[1]);
      await page.keyboard.press('k');
      await expect.poll(openSubject, { timeout: 10_000 }).toBe(newestFirst[0]);

      // x checks the open message's row, and again unchecks it.
      await page.keyboard.press('x');
      await page.getByTestId('bulk-count').filter({ hasText: '已选 1 封' }).waitFor();
      await page.keyboard.press('x');
      await expect.poll(() => page.getByTestId('bulk-count').count()).toBe(0);

      // ? shows the help, in Chinese.
      await page.keyboard.press('Shift+?');
      const help = page.getByTestId('shortcut-help');
      await help.waitFor();
      expect(await help.textContent()).toContain('下一封邮件');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      // / goes to the search box; what is typed there stays there.
      await page.keyboard.press('/');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('搜索邮件');
      await page.keyboard.type('jk#');
      expect(await page.getByLabel('搜索邮件').inputValue()).toBe('jk#');
      expect(await openSubject()).toBe(newestFirst[0]);
      expect(await page.getByTestId('message-item').count()).toBe(3);
      await page.getByLabel('搜索邮件').fill('');

      // With a modifier held nothing happens (Ctrl+J is the browser's).
      await blur();
      await page.keyboard.press('Alt+j');
      expect(await openSubject()).toBe(newestFirst[0]);

      // r answers the open message in the compose drawer; while it is open the inbox keys sleep.
      await page.keyboard.press('r');
      const drawer = page.locator('.ant-drawer-open');
      await drawer.getByText('回复', { exact: true }).waitFor({ timeout: 10_000 });
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('j');
      expect(await openSubject()).toBe(newestFirst[0]);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('.ant-drawer-open').count(), { timeout: 10_000 }).toBe(0);
      await blur();

      // # deletes the open message, with undo.
      await page.keyboard.press('Shift+#');
      await page.getByTestId('undo-bar').filter({ hasText: '已删除 1 封' }).waitFor();
      expect(await shownSubjects(page)).toEqual([newestFirst[1], newestFirst[2]].sort());
      await page.getByTestId('undo-delete').click();
      await expect.poll(() => page.getByTestId('message-item').count()).toBe(3);
      expect(await serverSubjects(address)).toHaveLength(3);
      await page.context().close();
    });
  });

  describe('a mailbox login', () => {
    it('checks, marks read and marks all read on its own address', async () => {
      const registered = ok(
        await suite.api().post<{ token: string; email: string }>('/regEmail', {
          domainId: domain.id,
          localPart: uniqueName('mb'),
          password: 'mailbox-pass-123',
        }),
      );
      const tag = uniqueName('s');
      for (const n of [1, 2, 3]) {
        const reply = await sendSmtp(
          suite.server.smtpPort,
          'sender@e2e.test',
          registered.email,
          message(registered.email, `${tag} ${n}`),
        );
        expect(reply).toMatch(/^250/);
      }
      const unread = async () =>
        ok(await suite.api(registered.token).get<UnreadData>('/user/getUnreadEmail')).total;
      const page = await suite.openAs(registered.token, '/user/inbox', desktop);
      await expect.poll(() => page.getByTestId('message-item').count(), { timeout: 10_000 }).toBe(3);
      await row(page, `${tag} 1`).getByTestId('message-check').click();
      await bulkButton(page, '标为已读').click();
      await expect.poll(unread).toBe(2);
      await page.getByRole('button', { name: '全部标为已读', exact: true }).click();
      await expect.poll(unread).toBe(0);
      await expect
        .poll(() => page.locator('[data-testid="message-item"][data-unread="true"]').count())
        .toBe(0);
      await page.context().close();
    });
  });

  describe('phone', () => {
    it('fits the bulk bar in 375 px with touch-sized controls; checks, stars and deletes by touch', async () => {
      const { address, subjects } = await addressWithMail(3);
      const page = await openInbox(address, 3, phoneViewport);
      await row(page, subjects[0] as string)
        .getByTestId('message-check')
        .tap();
      await row(page, subjects[1] as string)
        .getByTestId('message-check')
        .tap();
      await page.getByTestId('bulk-count').filter({ hasText: '已选 2 封' }).waitFor();
      // Tapping a check box does not open the message.
      expect(await page.getByTestId('reader-screen').count()).toBe(0);

      const bar = page.getByTestId('bulk-toolbar');
      const box = await bar.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBeLessThanOrEqual(0);
      const sizes = await bar.evaluate((element) =>
        [...element.querySelectorAll('button, .inbox-check')].map((control) => {
          const rect = control.getBoundingClientRect();
          return {
            label: control.getAttribute('aria-label'),
            width: rect.width,
            height: rect.height,
            right: rect.right,
          };
        }),
      );
      expect(sizes.map((size) => size.label)).toEqual([null, '标为已读', '删除', '更多操作']);
      for (const size of sizes) {
        expect(size.height, String(size.label)).toBeGreaterThanOrEqual(44);
        expect(size.width, String(size.label)).toBeGreaterThanOrEqual(44);
        expect(size.right, String(size.label)).toBeLessThanOrEqual(375);
      }
      for (const check of await page.getByTestId('message-check').all()) {
        const rect = await check.evaluate((element) => {
          const frame = element.closest('.inbox-check') ?? element;
          const r = frame.getBoundingClientRect();
          return { width: r.width, height: r.height };
        });
        expect(rect.height).toBeGreaterThanOrEqual(44);
        expect(rect.width).toBeGreaterThanOrEqual(44);
      }

      // The rarer actions are in 更多.
      await bulkButton(page, '更多操作').tap();
      await page.getByRole('menuitem', { name: '加星标' }).tap();
      await expect
        .poll(async () => (await serverInbox(address)).list.filter((m) => m.starred).length)
        .toBe(2);

      await bulkButton(page, '删除').tap();
      await page.getByTestId('undo-bar').filter({ hasText: '已删除 2 封' }).waitFor();
      const undoBox = await page.getByTestId('undo-bar').boundingBox();
      expect((undoBox?.x ?? 0) + (undoBox?.width ?? 0)).toBeLessThanOrEqual(375);
      expect(await shownSubjects(page)).toEqual([subjects[2]]);
      await page.getByTestId('undo-delete').tap();
      await expect.poll(() => page.getByTestId('message-item').count()).toBe(3);

      // With nothing checked the bar offers 全部标为已读 (the list's header has no room for it here).
      await page.getByTestId('select-all').tap();
      await page.getByTestId('select-all').tap();
      await expect.poll(() => page.getByTestId('bulk-count').count()).toBe(0);
      expect(await unreadOf(address)).toBe(3);
      await page.getByTestId('bulk-toolbar').getByRole('button', { name: '全部标为已读' }).tap();
      await expect.poll(() => unreadOf(address)).toBe(0);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBeLessThanOrEqual(0);
      await page.context().close();
    });
  });
});
