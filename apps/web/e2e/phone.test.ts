import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Domain, permissionsFor, type RegEmailData, type Role } from '@youju/contract';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedUserScreens, paths, publicRoutes, type RouteEntry } from '../src/config/routes';
import { addDomain, createAddress, createSysAccount, ok, uniqueName } from './support/api';
import { navigate, phoneViewport, settle, storeToken } from './support/browser';
import { type RecordingServer, sendSmtp, startRecordingServer } from './support/smtp';
import { setUpBrowserSuite } from './support/suite';

/**
 * Screenshots of every screen on the phone, for comparing a change with the screens before it
 * (scripts/compare-screenshots.mjs): taken when YOUJU_SCREENSHOT_DIR names the folder for them,
 * never into the repository. Not otherwise: a full-page capture at twice the pixels is a sixth of
 * this file's CPU, for pictures nobody looks at.
 */
const screenshotDir = process.env.YOUJU_SCREENSHOT_DIR;

/** Saves what `page` shows as `file` in the screenshot folder, when one was asked for. */
async function screenshot(page: Page, file: string, fullPage = false): Promise<void> {
  if (screenshotDir) await page.screenshot({ path: join(screenshotDir, file), fullPage });
}

const desktopViewport: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/** The smallest height of a touch target (WCAG 2.5.5; Apple's and Google's guidance say 44–48). */
const MIN_TOUCH_TARGET = 44;

/** A MIME message as bytes, headers in UTF-8. */
function message(headers: Record<string, string>, body: string): Buffer {
  const head = Object.entries({
    'Message-ID': `<${uniqueName('m')}@e2e.test>`,
    Date: new Date().toUTCString(),
    'MIME-Version': '1.0',
    'Content-Transfer-Encoding': '8bit',
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return Buffer.from(`${head}\r\n\r\n${body}`);
}

function encodedSubject(subject: string): string {
  return `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`;
}

interface HorizontalOverflow {
  innerWidth: number;
  scrollWidth: number;
  /** the elements that stick out of the window without a box that scrolls or clips them */
  offenders: string[];
}

/** How wide the page is against the window, and what makes it wider. */
function horizontalOverflow(page: Page): Promise<HorizontalOverflow> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const offenders: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      let contained = false;
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        const style = getComputedStyle(parent);
        if (style.overflowX !== 'visible' || style.position === 'fixed') {
          contained = true;
          break;
        }
      }
      if (contained || getComputedStyle(element).position === 'fixed') continue;
      const classes = typeof element.className === 'string' ? element.className.split(' ').slice(0, 3) : [];
      offenders.push(
        `${element.tagName.toLowerCase()}${classes.map((name) => `.${name}`).join('')} right=${Math.round(box.right)} «${(element.textContent ?? '').slice(0, 30)}»`,
      );
      if (offenders.length >= 8) break;
    }
    return { innerWidth: width, scrollWidth: document.documentElement.scrollWidth, offenders };
  });
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await horizontalOverflow(page);
  // A page wider than the phone makes Chrome widen the layout viewport too: compare with 375 first.
  expect(overflow.scrollWidth, `${what} 横向滚动：${overflow.offenders.join('；')}`).toBeLessThanOrEqual(375);
  expect(overflow.innerWidth, what).toBe(375);
  expect(overflow.scrollWidth, what).toBeLessThanOrEqual(overflow.innerWidth);
}

/**
 * The visible interactive elements inside `scope` that are less than 44 px tall. A field counts by
 * its frame (the affix wrapper, the select), a menu entry by its row, not by the link in it.
 */
function smallTouchTargets(page: Page, scope: string): Promise<string[]> {
  return page.evaluate(
    ({ scope, minimum }) => {
      const selector = [
        'button',
        'a[href]',
        '[role="menuitem"]',
        '[role="tab"]',
        'input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"])',
        '.ant-segmented-item',
        '.ant-pagination-item',
        '[data-testid="message-item"]',
      ].join(',');
      const small: string[] = [];
      for (const container of Array.from(document.querySelectorAll(scope))) {
        for (const element of Array.from(container.querySelectorAll(selector))) {
          if (element.matches('[role="menuitem"] a')) continue;
          const target =
            element.closest('.ant-input-affix-wrapper, .ant-select, .ant-input-number, .ant-picker') ??
            element;
          const box = target.getBoundingClientRect();
          const style = getComputedStyle(target);
          if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
          if (box.height + 0.5 < minimum) {
            const label =
              element.getAttribute('aria-label') ?? (element.textContent ?? '').trim().slice(0, 20);
            small.push(`${element.tagName.toLowerCase()}「${label}」${Math.round(box.height)}px`);
          }
        }
      }
      return small;
    },
    { scope, minimum: MIN_TOUCH_TARGET },
  );
}

describe('phones (375 × 812, touch) and the desktop reader', () => {
  const suite = setUpBrowserSuite();
  let domain: Domain;
  let remote: RecordingServer;
  /** tokens of one caller of each logged-in role */
  const tokens = {} as Record<Exclude<Role, 'anonymous'>, string>;
  let mailboxAddress = '';

  beforeAll(async () => {
    if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });
    remote = await startRecordingServer();
    domain = await addDomain(suite.admin, { name: `${uniqueName('phone')}.test`, publicRegistration: true });
    tokens.admin = suite.adminToken;
    const username = uniqueName('user');
    await createSysAccount(suite.admin, { username, password: 'user-pass-123', role: 'user' });
    tokens.user = await suite.login(username, 'user-pass-123');
    const registered = ok(
      await suite.api().post<RegEmailData>('/regEmail', {
        domainId: domain.id,
        localPart: uniqueName('mb'),
        password: 'mailbox-123',
      }),
    );
    tokens.mailbox = registered.token;
    mailboxAddress = registered.email;
    await createAddress(suite.admin, { domainId: domain.id, localPart: uniqueName('box') });
  });
  afterAll(async () => {
    await remote?.close();
  });

  async function deliver(to: string, subject: string, body: string, type = 'text/plain'): Promise<void> {
    const raw = message(
      {
        From: '张三 <zhangsan@e2e.test>',
        To: to,
        Subject: encodedSubject(subject),
        'Content-Type': `${type}; charset=UTF-8`,
      },
      body,
    );
    expect(await sendSmtp(suite.server.smtpPort, 'zhangsan@e2e.test', to, raw)).toMatch(/^250/);
  }

  /** Opens `path` as the holder of `token` (anonymously without one) and checks the screen. */
  async function visit(page: Page, role: Role, entry: RouteEntry | { path: string; name: string }) {
    const what = `${role} ${entry.path}`;
    await navigate(page, suite.baseUrl, entry.path);
    await settle(page);
    await expectNoSidewaysScroll(page, what);
    const file = `${role}${entry.path.replaceAll('/', '-') || '-root'}.png`;
    await screenshot(page, file, true);
  }

  async function phonePage(role: Role): Promise<Page> {
    const { page } = await suite.newPage(phoneViewport);
    if (role !== 'anonymous') {
      await storeToken(page, suite.baseUrl, tokens[role]);
    }
    return page;
  }

  it('shows every public route without sideways scrolling, and its menu as a drawer', async () => {
    const page = await phonePage('anonymous');
    for (const entry of [{ path: paths.root, name: '/' }, ...Object.values(publicRoutes)]) {
      await visit(page, 'anonymous', entry);
    }
    await page.goto(`${suite.baseUrl}/home`);
    await settle(page);
    // The row of links gives way to the menu button.
    expect(await page.getByRole('navigation', { name: '站点导航' }).count()).toBe(0);
    expect(await smallTouchTargets(page, '.ant-layout-header')).toEqual([]);
    await page.getByRole('button', { name: '打开菜单' }).tap();
    const drawer = page.locator('.menu-drawer .ant-drawer-section');
    await drawer.waitFor();
    expect(await smallTouchTargets(page, '.menu-drawer .ant-drawer-section')).toEqual([]);
    await drawer.getByRole('link', { name: /商店/ }).tap();
    await page.waitForURL(`${suite.baseUrl}/store`);
    await drawer.waitFor({ state: 'hidden' });
    await expectNoSidewaysScroll(page, 'anonymous /store after the drawer');
    await page.context().close();
  });

  for (const role of ['admin', 'user', 'mailbox'] as const) {
    it(`shows every /user screen a ${role} may open without sideways scrolling`, async () => {
      const screens = allowedUserScreens(permissionsFor(role));
      expect(screens.length).toBeGreaterThan(0);
      const page = await phonePage(role);
      await visit(page, role, { path: paths.user, name: '用户中心' });
      expect(new URL(page.url()).pathname).toBe('/user/inbox');
      for (const entry of screens) {
        await visit(page, role, entry);
        await page.locator('.ant-layout-header h5').filter({ hasText: entry.name }).waitFor();
      }
      // The side bar never takes room on a phone.
      expect(await page.locator('.ant-layout-sider').count()).toBe(0);
      await page.context().close();
    });
  }

  it('opens the /user menu as a drawer that navigates, with touch-sized entries', async () => {
    const page = await phonePage('admin');
    await page.goto(`${suite.baseUrl}/user/inbox`);
    await settle(page);
    expect(await smallTouchTargets(page, '.ant-layout-header')).toEqual([]);
    await page.getByTestId('menu-button').tap();
    const drawer = page.locator('.menu-drawer .ant-drawer-section');
    await drawer.waitFor();
    await drawer.getByTestId('current-user').filter({ hasText: 'admin' }).waitFor();
    expect(await smallTouchTargets(page, '.menu-drawer .ant-drawer-section')).toEqual([]);
    await drawer.getByRole('menuitem', { name: /已发送/ }).tap();
    await page.waitForURL(`${suite.baseUrl}/user/sent`);
    await drawer.waitFor({ state: 'hidden' });
    await page.locator('.ant-layout-header h5').filter({ hasText: '已发送' }).waitFor();
    await expectNoSidewaysScroll(page, 'admin /user/sent after the drawer');
    await page.context().close();
  });

  it('reads mail full-screen on a phone and goes back to the list with its button and the browser', async () => {
    const subject = `手机阅读 ${uniqueName('p')}`;
    await deliver(
      mailboxAddress,
      subject,
      `<p>第一段，很长的一行：${'很长的文字'.repeat(40)}</p><table width="900"><tr><td>宽表格</td></tr></table>`,
      'text/html',
    );
    const page = await phonePage('mailbox');
    await page.goto(`${suite.baseUrl}/user/inbox`);
    const item = page.getByTestId('message-item').filter({ hasText: subject });
    await item.waitFor({ timeout: 10_000 });
    await settle(page);
    await expectNoSidewaysScroll(page, 'mailbox inbox list');
    const list = await page.getByTestId('message-list').boundingBox();
    // The list takes the whole width (the content's 12 px padding and the card's border aside).
    expect(list?.width).toBeGreaterThanOrEqual(375 - 2 * 12 - 2 * 12 - 2);
    expect(await smallTouchTargets(page, '.ant-layout-header, .ant-card')).toEqual([]);

    await item.tap();
    const reader = page.getByTestId('reader-screen');
    await reader.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    expect(await reader.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 812 });
    const id = new URL(page.url()).searchParams.get('id');
    expect(id).toMatch(/^\d+$/);
    await page.frameLocator('[data-testid="mail-frame"]').getByText('宽表格').waitFor();
    await settle(page);
    await expectNoSidewaysScroll(page, 'mailbox reader');
    expect(await smallTouchTargets(page, '[data-testid="reader-screen"]')).toEqual([]);
    await screenshot(page, 'mailbox-reader.png');

    // The reader's back control returns to the list, in the list's own address.
    await page.getByTestId('reader-back').tap();
    await reader.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    await item.waitFor();

    // So does the browser's back button; the inbox stays.
    await item.tap();
    await reader.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    await page.goBack();
    await reader.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/user/inbox');
    expect(new URL(page.url()).search).toBe('');
    await item.waitFor();

    // A link to the message (a Telegram notification's) opens it; back control shows the list.
    await page.goto(`${suite.baseUrl}/user/inbox?id=${id}`);
    await reader.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    await page.getByTestId('reader-back').tap();
    await reader.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${suite.baseUrl}/user/inbox`);
    await item.waitFor();
    await page.context().close();
  });

  describe('on a desktop (1280 × 800)', () => {
    let address = '';
    const tallSubject = `长邮件 ${uniqueName('t')}`;

    beforeAll(async () => {
      address = await createAddress(suite.admin, { domainId: domain.id, localPart: uniqueName('desk') });
      for (let index = 1; index <= 20; index += 1) {
        await deliver(address, `第 ${index} 封 ${uniqueName('n')}`, `正文 ${index}`);
      }
      const paragraphs = Array.from({ length: 200 }, (_, index) => `<p>第 ${index + 1} 段正文。</p>`).join(
        '',
      );
      await deliver(
        address,
        tallSubject,
        [
          `<script>parent.document.title = "pwned"; fetch("${remote.origin}/script")</script>`,
          `<p onclick="parent.document.title = 'clicked'">开头</p>`,
          paragraphs,
          '<p>结尾</p>',
        ].join(''),
        'text/html',
      );
    });

    async function openDesktopInbox(): Promise<Page> {
      const page = await suite.openAs(suite.adminToken, '/user/inbox', desktopViewport);
      await page.getByLabel('邮箱地址').click();
      await page.locator('.ant-select-item-option').filter({ hasText: address }).click();
      await page.getByTestId('message-item').filter({ hasText: tallSubject }).waitFor({ timeout: 10_000 });
      return page;
    }

    it('keeps the reader in view while the list scrolls, and scrolls the reader on its own', async () => {
      const page = await openDesktopInbox();
      await page.getByTestId('message-item').filter({ hasText: tallSubject }).click();
      const pane = page.getByTestId('reader-pane');
      await pane.getByTestId('reader-subject').filter({ hasText: tallSubject }).waitFor();
      await page.frameLocator('[data-testid="mail-frame"]').getByText('结尾').waitFor();

      // Scroll the page (the list) to its end: the reader is still on the screen, whole.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      const box = await pane.boundingBox();
      expect(box?.y).toBeGreaterThanOrEqual(0);
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(800);
      expect(box?.height).toBeGreaterThan(600);
      await pane.getByTestId('reader-subject').filter({ hasText: tallSubject }).waitFor();

      // Scrolling the reader moves the reader alone.
      const pageScroll = await page.evaluate(() => window.scrollY);
      await pane.hover();
      await page.mouse.wheel(0, 1_500);
      await expect
        .poll(() => pane.evaluate((element) => element.scrollTop), { timeout: 5_000 })
        .toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBe(pageScroll);
      await page.context().close();
    });

    it('grows the mail frame to a tall message, with nothing in the message running', async () => {
      const page = await openDesktopInbox();
      const title = await page.title();
      await page.getByTestId('message-item').filter({ hasText: tallSubject }).click();
      const frame = page.getByTestId('mail-frame');
      await page.frameLocator('[data-testid="mail-frame"]').getByText('结尾').waitFor();
      const sandbox = (await frame.getAttribute('sandbox')) ?? '';
      expect(sandbox.split(' ')).not.toContain('allow-scripts');

      // The frame is as tall as its document: no scroll bar inside, all 200 paragraphs on its page.
      await expect
        .poll(() =>
          frame.evaluate((element: HTMLIFrameElement) => {
            const root = element.contentDocument?.documentElement;
            return root ? root.scrollHeight - root.clientHeight : -1;
          }),
        )
        .toBe(0);
      const sizes = await frame.evaluate((element: HTMLIFrameElement) => ({
        frame: element.clientHeight,
        document: element.contentDocument?.documentElement.scrollHeight ?? 0,
      }));
      expect(sizes.frame).toBeGreaterThan(3_000);
      expect(Math.abs(sizes.frame - sizes.document)).toBeLessThanOrEqual(1);

      // Nothing ran: neither the message's script nor, past the sanitisers, a script or a handler put
      // into the frame's document directly (the sandbox alone stops them).
      await page.frameLocator('[data-testid="mail-frame"]').getByText('开头').click();
      await frame.evaluate((element: HTMLIFrameElement) => {
        const document = element.contentDocument;
        if (!document) throw new Error('邮件正文的框架没有文档');
        const script = document.createElement('script');
        script.textContent = 'parent.document.title = "injected"';
        document.body.append(script);
        const button = document.createElement('p');
        button.setAttribute('onclick', 'parent.document.title = "handler"');
        button.id = 'handler';
        button.textContent = '处理器';
        document.body.prepend(button);
      });
      await page.frameLocator('[data-testid="mail-frame"]').locator('#handler').click();
      expect(await page.title()).toBe(title);
      expect(remote.requests).toEqual([]);

      // It shrinks again when its document does (a reflow, here: paragraphs removed).
      await frame.evaluate((element: HTMLIFrameElement) => {
        for (const paragraph of Array.from(element.contentDocument?.querySelectorAll('p') ?? []).slice(5))
          paragraph.remove();
      });
      await expect.poll(() => frame.evaluate((element) => element.clientHeight)).toBeLessThan(600);
      await page.context().close();
    });
  });
});
