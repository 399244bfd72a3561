import type {
  AddDomainBody,
  BuyEmailData,
  CreateCardData,
  Domain,
  EmailAccount,
  PageOf,
} from '@youju/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDomain, ok, uniqueName } from './support/api';
import { latinWords, menuNames, openWithToken } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

describe('the business: store, orders, cards, mailbox accounts', () => {
  const suite = setUpBrowserSuite();

  function addBusinessDomain(fields: Omit<AddDomainBody, 'name'>): Promise<Domain> {
    return addDomain(suite.admin, { name: `${uniqueName('biz')}.test`, ...fields });
  }

  async function asAdmin(page: Page, path: string): Promise<void> {
    await openWithToken(page, suite.baseUrl, suite.adminToken, path);
  }

  async function loginAsMailbox(page: Page, address: string, password: string): Promise<void> {
    await page.goto(`${suite.baseUrl}/auth`);
    await page.getByRole('tab', { name: '邮箱登录' }).click();
    await page.getByRole('tabpanel').getByLabel('邮箱地址').fill(address);
    await page.getByRole('tabpanel').getByLabel('密码', { exact: true }).fill(password);
    await page.getByRole('button', { name: /登录邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    expect(await page.getByTestId('current-user').textContent()).toBe(address);
  }

  it('a visitor buys a mailbox with manual payment, an administrator confirms, the visitor finds it and logs in', async () => {
    const domain = await addBusinessDomain({ forSale: true, price: 1990 });
    const localPart = uniqueName('buyer');
    const address = `${localPart}@${domain.name}`;
    const phone = `139${String(Date.now()).slice(-8)}`;

    // The visitor, in the store.
    const visitor = await suite.newPage();
    const page = visitor.page;
    await page.goto(`${suite.baseUrl}/store`);
    const card = page.locator('.ant-col .ant-card').filter({ hasText: domain.name });
    await card.getByRole('button', { name: /购\s*买/ }).click();
    const form = page.locator('form#buy-mailbox-form');
    await expect.poll(() => form.locator('.ant-select').textContent()).toContain(domain.name);
    await form.getByLabel('邮箱前缀').fill(localPart);
    await page.getByTestId('address-available').waitFor();
    expect(await page.getByTestId('address-available').textContent()).toContain(address);
    await form.getByLabel('邮箱密码').fill('bought-123');
    await form.getByLabel('确认密码').fill('bought-123');
    await form.getByLabel('手机号').fill(phone);
    await form.getByRole('radio', { name: '人工确认付款' }).check();
    expect(await form.textContent()).toContain('19.90 元');
    expect(await latinWords(page, [domain.name, address])).toEqual([]);
    await form.getByRole('button', { name: /提交订单/ }).click();
    await page.getByText('订单已提交，等待确认').waitFor();
    const orderNo = (await page.getByTestId('order-no').textContent())?.trim() ?? '';
    expect(orderNo).toMatch(/^\d{26}$/);

    // Until paid the lookup shows the order without the address.
    await page.getByRole('tab', { name: '查询订单' }).click();
    await page.getByLabel('下单手机号').fill(phone);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    const lookupRow = page.getByRole('row').filter({ hasText: orderNo });
    await lookupRow.waitFor();
    expect(await lookupRow.textContent()).toContain('等待付款确认');
    expect(await lookupRow.textContent()).toContain('开通后显示');

    // The administrator confirms the payment in /user/card's orders tab.
    const operator = await suite.newPage();
    await asAdmin(operator.page, '/user/card');
    await operator.page.getByRole('tab', { name: '订单' }).click();
    const orderRow = operator.page.getByRole('row').filter({ hasText: orderNo });
    await orderRow.waitFor();
    expect(await orderRow.textContent()).toContain('待付款');
    await orderRow.getByRole('button', { name: /确认收款/ }).click();
    await operator.page
      .getByRole('tooltip')
      .getByRole('button', { name: /确认收款/ })
      .click();
    await operator.page.getByText(`已确认收款，邮箱 ${address} 已开通`).waitFor();
    await expect.poll(() => orderRow.textContent()).toContain('已开通');
    await operator.context.close();

    // The visitor looks again, sees the address and logs in with it.
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => lookupRow.textContent()).toContain(address);
    expect(await lookupRow.textContent()).toContain('已开通');
    await loginAsMailbox(page, address, 'bought-123');
    // A mailbox user sees the inbox, sent mail and settings, and nothing else.
    const menu = await menuNames(page);
    expect(menu).toContain('收件箱');
    expect(menu).toContain('设置');
    expect(menu).not.toContain('邮箱账号');
    expect(menu).not.toContain('卡密管理');
    await visitor.context.close();
  });

  it('a visitor redeems a card in the store and logs in with the new mailbox, then changes its password', async () => {
    const domain = await addBusinessDomain({ publicRegistration: true });
    const { codes } = ok(
      await suite.admin.post<CreateCardData>('/user/createCard', {
        count: 1,
        validDays: 30,
        domainId: domain.id,
      }),
    );
    const localPart = uniqueName('card');
    const address = `${localPart}@${domain.name}`;
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/store`);
    await page.getByRole('tab', { name: '兑换卡密' }).click();
    const form = page.locator('form#redeem-card-form');
    await form.getByLabel('卡密').fill(codes[0]?.toLowerCase() ?? '');
    await form.getByLabel('邮箱前缀').fill(localPart);
    await form.getByLabel('密码', { exact: true }).fill('card-pass-1');
    await form.getByRole('button', { name: /兑\s*换/ }).click();
    await page.getByText('兑换成功').waitFor();
    expect(await page.getByTestId('redeemed-address').textContent()).toBe(address);

    // The same code a second time: a clear refusal.
    await page.getByRole('button', { name: /继续兑换/ }).click();
    await form.getByLabel('卡密').fill(codes[0] ?? '');
    await form.getByLabel('邮箱前缀').fill(uniqueName('again'));
    await form.getByLabel('密码', { exact: true }).fill('card-pass-1');
    await form.getByRole('button', { name: /兑\s*换/ }).click();
    await page.getByText('该卡密已被使用，每个卡密只能兑换一次').waitFor();

    await loginAsMailbox(page, address, 'card-pass-1');
    await page
      .getByRole('menuitem')
      .filter({ has: page.getByText('设置', { exact: true }) })
      .click();
    await page.waitForURL(`${suite.baseUrl}/user/setting`);
    const oldToken = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByLabel('原密码').fill('card-pass-1');
    await page.getByLabel('新密码', { exact: true }).fill('card-pass-2');
    await page.getByLabel('确认新密码').fill('card-pass-2');
    await page.getByRole('button', { name: /保存新密码/ }).click();
    await page.getByText('密码已修改，其他设备上的登录已失效').waitFor();
    const newToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(newToken).not.toBe(oldToken);
    ok(await suite.api().post('/loginEmail', { email: address, password: 'card-pass-2' }));
    await context.close();
  });

  it('an operator generates cards in /user/card and sees them in the list', async () => {
    const domain = await addBusinessDomain({ publicRegistration: true });
    const { context, page } = await suite.newPage();
    await asAdmin(page, '/user/card');
    await page.getByRole('button', { name: /生成卡密/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('数量').fill('3');
    await dialog.getByLabel('可兑换的域名').click();
    await page.locator('.ant-select-item-option').filter({ hasText: domain.name }).click();
    await dialog.getByLabel('有效天数').fill('7');
    await dialog.getByLabel('备注').fill('浏览器测试');
    await dialog.getByRole('button', { name: /生\s*成/ }).click();
    await dialog.getByText('卡密已生成').waitFor();
    const codes = (await dialog.getByLabel('生成的卡密').inputValue()).split('\n');
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^YJ(-[0-9A-Z]{4}){4}$/);
    await dialog.getByRole('button', { name: /完\s*成/ }).click();
    for (const code of codes) await page.getByRole('row').filter({ hasText: code }).waitFor();
    await page.getByLabel('卡密状态').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '已停用' }).click();
    await page.getByText('暂无卡密').waitFor();
    await context.close();
  });

  it('batch-disables accounts in /user/emailAccount and they can no longer log in', async () => {
    const domain = await addBusinessDomain({});
    const api = suite.admin;
    const tag = uniqueName('team');
    const addresses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const account = ok(
        await api.post<EmailAccount>('/user/createEmailAccount', {
          domainId: domain.id,
          localPart: `${tag}${i}`,
          password: 'team-pass-1',
          note: tag,
        }),
      );
      addresses.push(account.email);
    }
    const { context, page } = await suite.newPage();
    await asAdmin(page, '/user/emailAccount');
    await page.getByLabel('搜索邮箱').fill(tag);
    await page.getByLabel('搜索邮箱').press('Enter');
    for (const address of addresses) await page.getByRole('row').filter({ hasText: address }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: tag }).count()).toBe(3);
    for (const address of addresses.slice(0, 2)) {
      await page.getByRole('row').filter({ hasText: address }).getByRole('checkbox').check();
    }
    await page.getByTestId('batch-actions').getByText('已选 2 个').waitFor();
    await page.getByRole('button', { name: /批量停用/ }).click();
    await page.getByText('已修改 2 个邮箱').waitFor();
    for (const address of addresses.slice(0, 2)) {
      await expect
        .poll(() => page.getByRole('row').filter({ hasText: address }).textContent())
        .toContain('已停用');
    }
    expect(await page.getByRole('row').filter({ hasText: addresses[2] }).textContent()).toContain('正常');

    const list = ok(await api.get<PageOf<EmailAccount>>(`/user/searchEmailAccount?content=${tag}`)).list;
    expect(
      list
        .filter((a) => !a.enabled)
        .map((a) => a.email)
        .sort(),
    ).toEqual(addresses.slice(0, 2).sort());
    const refused = await suite.api().post('/loginEmail', {
      email: addresses[0],
      password: 'team-pass-1',
    });
    expect(refused.error).toBe(403);
    expect(refused.msg).toMatch(/停用/);

    // The status filter shows only the disabled ones.
    await page.getByLabel('启用状态').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '已停用' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: tag }).count()).toBe(2);
    await context.close();
  });

  it('imports accounts from a CSV file with a result per row', async () => {
    const domain = await addBusinessDomain({});
    const tag = uniqueName('csv');
    const csv = [
      '邮箱地址,密码,容量(MB),过期时间,备注',
      `${tag}1@${domain.name},import-pass-1,100,,导入一`,
      `${tag}2@${domain.name},123,,,密码太短`,
    ].join('\r\n');
    const { context, page } = await suite.newPage();
    await asAdmin(page, '/user/emailAccount');
    await page.getByRole('button', { name: /导\s*入/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[type=file]').setInputFiles({
      name: '账号.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${csv}`, 'utf8'),
    });
    await dialog.getByText('导入完成：成功 1 个，失败 1 个').waitFor();
    expect(
      await dialog
        .getByRole('row')
        .filter({ hasText: `${tag}2@` })
        .textContent(),
    ).toContain('密码长度');
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /关\s*闭/ })
      .click();
    // The table in the page (the dialog, portalled to the body, may still be fading out).
    await page
      .locator('.ant-card-body')
      .getByRole('row')
      .filter({ hasText: `${tag}1@${domain.name}` })
      .waitFor();
    await context.close();
  });

  it('an order placed with EPay goes to the gateway with a signed address', async () => {
    const domain = await addBusinessDomain({ forSale: true, price: 500 });
    ok(
      await suite.admin.post('/user/updatePaySettings', {
        epayEnabled: true,
        epayGatewayUrl: `${suite.baseUrl}/gateway-stand-in`,
        epayMerchantId: '1001',
        epayKey: 'browser-test-key',
        epayTypes: ['alipay'],
      }),
    );
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/store`);
    const form = page.locator('form#buy-mailbox-form');
    await form.getByLabel('域名').click();
    await page.locator('.ant-select-item-option').filter({ hasText: domain.name }).click();
    await form.getByLabel('邮箱前缀').fill(uniqueName('online'));
    await form.getByLabel('邮箱密码').fill('online-123');
    await form.getByLabel('确认密码').fill('online-123');
    await form.getByLabel('手机号').fill('13700000001');
    await form.getByRole('radio', { name: '支付宝' }).check();
    // The gateway cannot run here: the browser's request to it is answered by a stand-in page, and
    // the test checks where the browser was sent and with what.
    await page.route('**/gateway-stand-in**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<p>支付网关</p>' }),
    );
    const [request] = await Promise.all([
      page.waitForRequest((candidate) => candidate.url().includes('/gateway-stand-in')),
      form.getByRole('button', { name: /提交订单/ }).click(),
    ]);
    await page.getByText('支付网关').waitFor();
    const params = new URL(request.url()).searchParams;
    expect(params.get('pid')).toBe('1001');
    expect(params.get('money')).toBe('5.00');
    expect(params.get('type')).toBe('alipay');
    expect(params.get('sign')).toMatch(/^[0-9a-f]{32}$/);
    expect(params.get('notify_url')).toBe(`${suite.baseUrl}/api/pay/notify/epay`);
    const orders = ok(await suite.admin.get<PageOf<BuyEmailData>>('/user/getOrders?status=pending'));
    expect(orders.list.map((order) => order.orderNo)).toContain(params.get('out_trade_no'));
    await context.close();
  });
});
