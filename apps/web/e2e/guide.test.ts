import type { CreateCardData, Domain } from '@youju/contract';
import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDomain, ok, uniqueName } from './support/api';
import { openWithToken, phoneViewport } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

/*
 * Guidance for new people and a clear store, on a desktop (1280 × 800) and a phone (375 × 812,
 * touch): the first-run checklist, a single domain preselected, 登录新邮箱 after a card, the
 * for-sale form's price, and the owner's new-order notification.
 */
const devices: Array<[string, BrowserContextOptions]> = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', phoneViewport],
];

describe.each(devices)('guidance and store clarity on a %s', (device, options) => {
  // A fresh installation per device: an administrator's checklist counts the whole system.
  const suite = setUpBrowserSuite();

  async function freshAdmin(): Promise<string> {
    const username = uniqueName('boss');
    const password = 'boss-pass-123';
    ok(await suite.admin.post('/admin/createSysAccount', { username, password, role: 'admin' }));
    return suite.login(username, password);
  }

  it('a fresh administrator sees 开始使用 and each step links to the screen that does it', async () => {
    // The first administrator of this server has nothing yet: the checklist shows on its first page.
    const { page, context } = await suite.newPage(options);
    await openWithToken(page, suite.baseUrl, suite.adminToken, '/user/inbox');
    const guide = page.getByTestId('guide-card');
    await guide.waitFor();
    expect(await guide.textContent()).toContain('开始使用');
    // An administrator's steps count the whole system: nothing exists yet on this fresh server.
    const state = ok(await suite.admin.get<{ domains: number; dnsReady: boolean }>('/user/getGuide'));
    expect(await page.getByTestId('guide-step-1').getAttribute('data-done')).toBe(String(state.domains > 0));
    expect(await page.getByTestId('guide-step-2').getAttribute('data-done')).toBe(String(state.dnsReady));
    if (state.domains === 0) {
      // 添加域名 → the domain screen
      await page.getByTestId('guide-step-1').getByRole('link', { name: '去添加域名' }).click();
      await page.waitForURL(`${suite.baseUrl}/user/domain`);
      await page.goBack();
    }
    // 配置 DNS → the domain screen (its DNS records and check)
    await page.getByTestId('guide-step-2').getByRole('link', { name: '去配置 DNS' }).click();
    await page.waitForURL(`${suite.baseUrl}/user/domain`);
    // 收到邮件 → the inbox
    await page.goto(`${suite.baseUrl}/user/dashboard`);
    await page.getByTestId('guide-card').waitFor();
    await page.getByTestId('guide-step-4').getByRole('link', { name: '去收件箱' }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    // dismissed: gone, and stays gone after a reload
    await page
      .getByTestId('guide-card')
      .getByRole('button', { name: /不再显示/ })
      .click();
    await page.getByTestId('guide-card').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: /写邮件/ }).waitFor();
    expect(await page.getByTestId('guide-card').count()).toBe(0);
    await context.close();
  });

  it('ticks steps from real state, sends the test mail, and preselects the only domain', async () => {
    const token = await freshAdmin();
    const api = suite.api(token);
    const domain: Domain = await addDomain(api, {
      name: `${uniqueName('guide')}.test`,
      publicRegistration: true,
    });
    ok(await api.post('/user/createEmail', { domainId: domain.id, localPart: 'hello' }));
    const { page, context } = await suite.newPage(options);
    await openWithToken(page, suite.baseUrl, token, '/user/dashboard');
    await page.getByTestId('guide-card').waitFor();
    await expect.poll(() => page.getByTestId('guide-step-1').getAttribute('data-done')).toBe('true');
    expect(await page.getByTestId('guide-step-2').getAttribute('data-done')).toBe('false');
    // 发送测试邮件: from test@<domain> to the mailbox on it, by the ordinary sending path
    await page.getByLabel('测试邮件收件地址').fill(`hello@${domain.name}`);
    await page.getByRole('button', { name: '发送测试邮件' }).click();
    await page.getByText('测试邮件已发出').waitFor();
    await expect
      .poll(() => page.getByTestId('guide-step-3').getAttribute('data-done'), { timeout: 20_000 })
      .toBe('true');
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('guide-card').waitFor();
          return page.getByTestId('guide-step-4').getAttribute('data-done');
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('true');

    // the one domain is chosen already where a domain is asked for (a new mailbox account)
    await page.goto(`${suite.baseUrl}/user/emailAccount`);
    await page.getByRole('button', { name: /新建邮箱/ }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('.ant-select').first().textContent()).toContain(domain.name);
    await context.close();
  });

  it('a card redeemed in the store logs straight into the new mailbox with 登录新邮箱', async () => {
    const domain = await addDomain(suite.admin, {
      name: `${uniqueName('card')}.test`,
      publicRegistration: true,
    });
    const { codes } = ok(
      await suite.admin.post<CreateCardData>('/user/createCard', {
        count: 1,
        validDays: 30,
        domainId: domain.id,
      }),
    );
    const localPart = uniqueName('redeem');
    const address = `${localPart}@${domain.name}`;
    const { page, context } = await suite.newPage(options);
    await page.goto(`${suite.baseUrl}/store`);
    await page.getByRole('tab', { name: '兑换卡密' }).click();
    const form = page.locator('form#redeem-card-form');
    await form.getByLabel('卡密').fill(codes[0] ?? '');
    await form.getByLabel('邮箱前缀').fill(localPart);
    await form.getByLabel('密码', { exact: true }).fill('card-pass-1');
    await form.getByRole('button', { name: /兑\s*换/ }).click();
    await page.getByText('兑换成功').waitFor();
    await page.getByRole('button', { name: '登录新邮箱' }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    // On a phone the account's name is in the menu drawer, opened from the header.
    await page.getByText('暂无邮件').waitFor();
    if (device === 'phone') await page.getByTestId('menu-button').click();
    await expect
      .poll(() => page.getByTestId('current-user').filter({ visible: true }).textContent())
      .toBe(address);
    // nothing of the password in the address bar or in storage
    expect(page.url()).not.toContain('card-pass-1');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain('card-pass-1');
    // next time the login screen opens on 邮箱登录
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto(`${suite.baseUrl}/auth`);
    await expect
      .poll(() => page.getByRole('tab', { name: '邮箱登录' }).getAttribute('aria-selected'))
      .toBe('true');
    await context.close();
  });

  it('the domain form requires a price to sell, and asks before selling a free domain', async () => {
    const { page, context } = await suite.newPage(options);
    await openWithToken(page, suite.baseUrl, suite.adminToken, '/user/domain');
    await page
      .getByRole('button', { name: /添加域名/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    const name = `${uniqueName('sale')}.test`;
    await dialog.getByLabel('域名').fill(name);
    await dialog.getByLabel('在商店出售邮箱').click();
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    await dialog.getByText('出售邮箱必须设置价格').waitFor();
    await dialog.getByLabel('价格（元）').fill('9.9');
    await dialog.getByLabel('开放注册').click();
    await dialog.getByText('该域名同时允许免费注册，购买将没有意义').waitFor();
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    await dialog.getByText('请确认同时开放注册和出售，或关闭其中一项').waitFor();
    await dialog.getByLabel('开放注册').click();
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    const domains = ok(await suite.admin.get<Domain[]>('/user/getDomains'));
    expect(domains.find((domain) => domain.name === name)).toMatchObject({ forSale: true, price: 990 });
    await context.close();
  });

  it("the domain's owner is notified of a new order", async () => {
    const domain = await addDomain(suite.admin, {
      name: `${uniqueName('shop')}.test`,
      forSale: true,
      price: 700,
    });
    const { page, context } = await suite.newPage(options);
    // The live stream opens with the page: place the order once the server answered it.
    const streamOpen = page.waitForResponse((response) => response.url().includes('/api/user/events'));
    await openWithToken(page, suite.baseUrl, suite.adminToken, '/user/dashboard');
    await streamOpen;
    const localPart = uniqueName('buyer');
    ok(
      await suite.api().post('/buyEmail', {
        domainId: domain.id,
        localPart,
        password: 'buyer-pass-1',
        phone: '13712345678',
        payMethod: 'manual',
      }),
    );
    const notice = page.locator('.ant-notification-notice').filter({ hasText: '新订单' });
    await notice.waitFor({ timeout: 15_000 });
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain(`${localPart}@${domain.name}`);
    expect(text).toContain('¥7.00');
    expect(text).toContain('137****5678');
    expect(text).not.toContain('buyer-pass-1');
    await context.close();
  });
});
