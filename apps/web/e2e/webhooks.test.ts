import type { Webhook } from '@youju/contract';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver, verifySignature } from '../../server/test/webhooks/webhook-helpers';
import { addDomain, createAddress, ok } from './support/api';
import { sendSmtp } from './support/smtp';
import { setUpBrowserSuite } from './support/suite';

/** /user/interface: webhooks and Telegram, on a desktop screen and on a 375 px phone. */
describe('webhooks and Telegram on /user/interface', () => {
  let receiver: Receiver | undefined;
  let telegram: Receiver | undefined;
  const suite = setUpBrowserSuite(async () => {
    receiver = await startReceiver();
    telegram = await startReceiver();
    return {
      env: {
        WEBHOOK_ALLOW_PRIVATE: '1',
        TELEGRAM_API_URL: telegram.url,
        WEBHOOK_POLL_MS: '200',
        PUBLIC_URL: 'https://mail.e2e.test',
      },
    };
  });
  afterAll(async () => {
    await receiver?.stop();
    await telegram?.stop();
  });

  const started = (value: Receiver | undefined) => {
    if (!value) throw new Error('receiver not started');
    return value;
  };

  async function noSidewaysScroll(page: Page): Promise<void> {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  }

  it('adds a webhook with its secret shown once, tests it, reads its log, disables and deletes it', async () => {
    const hooks = started(receiver);
    const page = await suite.openAs(suite.adminToken, '/user/interface');
    await page.setViewportSize({ width: 1280, height: 900 });
    const card = page.locator('.ant-card').filter({ hasText: 'Webhook 推送' });
    await card.getByText('还没有 Webhook').waitFor();

    await card.getByRole('button', { name: /添加 Webhook/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '添加 Webhook' });
    await dialog.getByLabel('回调地址').fill(`${hooks.url}/from-browser`);
    await dialog.getByRole('button', { name: /添\s*加/ }).click();

    const secretDialog = page.locator('.ant-modal').filter({ hasText: 'Webhook 已添加' });
    await secretDialog.getByText('请立即复制并妥善保存签名密钥').waitFor();
    const secret = (await secretDialog.locator('.webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(await secretDialog.locator('.ant-typography-copy').count()).toBe(1);
    await secretDialog.getByRole('button', { name: /我已保存/ }).click();
    const row = card.locator('tr.ant-table-row').filter({ hasText: '/from-browser' });
    await row.waitFor();
    // Shown once: the list never carries it again.
    expect(await page.content()).not.toContain(secret);

    await row.getByRole('button', { name: /测\s*试/ }).click();
    await row
      .locator('.webhook-test-result')
      .filter({ hasText: /测试成功：HTTP 200，用时 \d+ 毫秒/ })
      .waitFor();
    const post = hooks.received.find((request) => request.path === '/from-browser');
    expect(post?.headers['x-youju-event']).toBe('webhook.test');
    expect(post && verifySignature(secret, post.headers, post.body)).toBe(true);
    await row.getByText(/成功 200/).waitFor();

    await row.getByRole('button', { name: /记\s*录/ }).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: '投递记录' });
    const logRow = drawer.locator('tr.ant-table-row').first();
    await logRow.filter({ hasText: '已送达' }).waitFor();
    expect(await logRow.textContent()).toContain('测试');
    expect(await logRow.textContent()).toContain('200');
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    await row.getByRole('switch').click();
    await page.getByText('已停用').waitFor();
    const listed = ok(await suite.admin.get<Webhook[]>('/user/getWebhooks'));
    expect(listed.find((hook) => hook.url.endsWith('/from-browser'))?.enabled).toBe(false);

    // The server's refusal (an address filter on someone else's address) shows in the dialog.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const editDialog = page.locator('.ant-modal').filter({ hasText: '编辑 Webhook' });
    await editDialog.getByLabel('只推送这个邮箱').fill('nobody@not-yours.test');
    await editDialog.getByRole('button', { name: /保\s*存/ }).click();
    await editDialog.getByTestId('webhook-error').filter({ hasText: '不是你的邮箱' }).waitFor();
    await editDialog.getByRole('button', { name: /取\s*消/ }).click();

    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await row.waitFor({ state: 'detached' });

    // How to verify the signature, in Node and Python.
    await page.getByText('校验签名').waitFor();
    expect(await page.locator('.webhook-code').first().textContent()).toContain('createHmac');
    await page.getByRole('tab', { name: 'Python' }).click();
    await page.locator('.webhook-code').filter({ hasText: 'hmac.new' }).waitFor();
    await page.context().close();
  });

  it('saves Telegram after a test message and never shows the token again', async () => {
    const bot = started(telegram);
    const page = await suite.openAs(suite.adminToken, '/user/interface');
    const card = page.locator('.ant-card').filter({ hasText: 'Telegram 通知' });
    const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0';
    await card.getByLabel('机器人令牌').fill('not a token');
    await card.getByLabel('聊天编号').fill('123456789');
    await card.getByRole('button', { name: /保存并发送测试消息/ }).click();
    await card.getByText(/格式如 123456789/).waitFor();
    await card.getByLabel('机器人令牌').fill(token);
    await card.getByRole('button', { name: /保存并发送测试消息/ }).click();
    await page.getByText('已保存，测试消息已发送到 Telegram').waitFor();
    expect(bot.received.map((request) => request.path)).toEqual([`/bot${token}/sendMessage`]);

    await page.reload();
    await card.getByText('已设置，留空则保持不变').waitFor();
    expect(await page.content()).not.toContain('AAHdqTcv');

    // New mail arrives as a Telegram message whose link opens the message in the web client.
    const domain = await addDomain(suite.admin, { name: 'tg-e2e.youju.test' });
    const address = await createAddress(suite.admin, { domainId: domain.id, localPart: 'bot' });
    const raw = Buffer.from(
      `From: Notifier <notify@e2e.test>\r\nTo: <${address}>\r\nSubject: Login code\r\n` +
        'Content-Type: text/plain; charset=utf-8\r\n\r\nYour verification code is 620174.\r\n',
    );
    expect(await sendSmtp(suite.server.smtpPort, 'notify@e2e.test', address, raw)).toMatch(/^250/);
    await expect.poll(() => bot.received.length, { timeout: 15_000 }).toBe(2);
    const text = (JSON.parse(bot.received[1]?.body ?? '{}') as { text: string }).text;
    expect(text).toContain('620174');
    const link = /https:\/\/mail\.e2e\.test(\/user\/inbox\?id=\d+)/.exec(text)?.[1];
    expect(link).toBeDefined();
    await page.goto(`${suite.baseUrl}${link}`);
    await page.getByTestId('reader-subject').filter({ hasText: 'Login code' }).waitFor();

    // Telegram refusing the chat is told in the card.
    bot.setFallback({ status: 400, body: '{"ok":false,"description":"Bad Request: chat not found"}' });
    await page.goto(`${suite.baseUrl}/user/interface`);
    await card.getByLabel('聊天编号').fill('42');
    await card.getByRole('button', { name: /保存并发送测试消息/ }).click();
    await card.getByTestId('telegram-error').filter({ hasText: 'chat not found' }).waitFor();
    bot.setFallback(200);
    await page.context().close();
  });

  it('fits a 375 px phone: no sideways scrolling, the dialogs usable', async () => {
    ok(
      await suite.admin.post('/user/addWebhook', {
        url: `${started(receiver).url}/phone-hook-with-a-long-path`,
      }),
    );
    const { page } = await suite.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${suite.baseUrl}/home`);
    await page.evaluate((token) => localStorage.setItem('token', token), suite.adminToken);
    await page.goto(`${suite.baseUrl}/user/interface`);
    const card = page.locator('.ant-card').filter({ hasText: 'Webhook 推送' });
    await card.locator('tr.ant-table-row').filter({ hasText: 'phone-hook' }).first().waitFor();
    await page.locator('.ant-card').filter({ hasText: 'Telegram 通知' }).waitFor();
    await noSidewaysScroll(page);

    await card.getByRole('button', { name: /添加 Webhook/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '添加 Webhook' });
    await dialog.getByLabel('回调地址').waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await noSidewaysScroll(page);
    await page.context().close();
  });
});
