import type { Domain } from '@youju/contract';
import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createAddress, uniqueName } from './support/api';
import { latinWords, loginThroughForm } from './support/browser';
import { type RecordingServer, sendSmtp, startRecordingServer } from './support/smtp';
import { setUpBrowserSuite } from './support/suite';

/** A MIME message as bytes: headers in UTF-8 (RFC 6532), `body` already in the charset its headers name. */
function message(headers: Record<string, string>, body: Buffer | string): Buffer {
  const head = Object.entries({
    'Message-ID': `<${uniqueName('m')}@e2e.test>`,
    Date: new Date().toUTCString(),
    'MIME-Version': '1.0',
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
}

describe('inbox, temporary mailbox and content filters in the browser', () => {
  const suite = setUpBrowserSuite();
  let domain: Domain;
  let remote: RecordingServer;

  beforeAll(async () => {
    remote = await startRecordingServer();
    domain = await addDomain(suite.admin, { name: `${uniqueName('mail')}.test`, publicRegistration: true });
  });
  afterAll(async () => {
    await remote?.close();
  });

  function newAddress(): Promise<string> {
    return createAddress(suite.admin, { domainId: domain.id, localPart: uniqueName('box') });
  }

  async function deliver(to: string, raw: Buffer): Promise<void> {
    const reply = await sendSmtp(suite.server.smtpPort, 'sender@e2e.test', to, raw);
    expect(reply).toMatch(/^250/);
  }

  /** Logs in as the administrator and shows one address's mail. */
  async function openInbox(address: string): Promise<Page> {
    const { page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    await page.getByLabel('邮箱地址').click();
    await page.locator('.ant-select-item-option').filter({ hasText: address }).click();
    return page;
  }

  it('shows a message sent over SMTP in the open inbox without reload, and reads it', async () => {
    const address = await newAddress();
    const page = await openInbox(address);
    await page.getByText('暂无邮件').waitFor();
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });

    const subject = `实时到达 ${uniqueName('s')}`;
    await deliver(
      address,
      message(
        {
          From: '=?UTF-8?B?5byg5LiJ?= <zhangsan@e2e.test>',
          To: address,
          Subject: `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`,
          'Content-Type': 'text/plain; charset=UTF-8',
          'Content-Transfer-Encoding': '8bit',
        },
        '这是一封纯文本邮件。\n第二行。',
      ),
    );
    const item = page.getByTestId('message-item').filter({ hasText: subject });
    await item.waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await item.getAttribute('data-unread')).toBe('true');

    await item.click();
    await page.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    expect(await page.getByTestId('reader-from').textContent()).toBe('张三 <zhangsan@e2e.test>');
    expect(await page.getByTestId('mail-text').textContent()).toContain('第二行。');
    // One date form everywhere: today's mail shows its time, the full time on hover.
    expect(await page.getByTestId('reader-time').textContent()).toMatch(/^(?:昨天 )?\d{2}:\d{2}$/);
    expect(await page.getByTestId('reader-time').getAttribute('title')).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
    await expect.poll(() => item.getAttribute('data-unread')).toBe('false');
    // The 开始使用 checklist above a system account's inbox names DNS records and test@<domain>: put
    // it away, the inbox itself is what is read here.
    const guide = page.getByTestId('guide-card');
    if (await guide.isVisible()) await guide.getByRole('button', { name: '不再显示' }).click();
    await guide.waitFor({ state: 'hidden' });
    expect(await latinWords(page, [address, subject, 'zhangsan@e2e.test', 'admin', 'Youju'])).toEqual([]);

    // Reply composes through the compose drawer, prefilled from the open message.
    await page
      .getByTestId('message-reader')
      .getByRole('button', { name: /^(?:\S+ )?回\s*复$/ })
      .click();
    const drawer = page.locator('.ant-drawer-open');
    await expect.poll(() => drawer.getByLabel('主题').inputValue()).toBe(`Re: ${subject}`);
    await drawer
      .getByRole('button', { name: /Close|关闭/ })
      .first()
      .click();
    await drawer.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /标为未读/ }).click();
    await expect.poll(() => item.getAttribute('data-unread')).toBe('true');
    await page
      .getByRole('button', { name: /^加星标$/ })
      .first()
      .click();
    await page
      .getByRole('button', { name: /取消星标/ })
      .first()
      .waitFor();
    await page.getByText('星标', { exact: true }).click();
    await item.waitFor();

    await page
      .getByTestId('message-reader')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await item.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('shows the verification code in the list and the reader and copies it in one click', async () => {
    const address = await newAddress();
    const page = await openInbox(address);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.baseUrl });
    await page.getByText('暂无邮件').waitFor();
    const subject = `登录验证 ${uniqueName('s')}`;
    await deliver(
      address,
      message(
        {
          From: 'Service <no-reply@e2e.test>',
          To: address,
          Subject: `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`,
          'Content-Type': 'text/html; charset=UTF-8',
          'Content-Transfer-Encoding': '8bit',
        },
        '<p>您好，</p><p>您的验证码是：<b style="color:#1677ff">738 205</b>，10 分钟内有效。订单号 20261124001 与此无关。</p>',
      ),
    );
    const item = page.getByTestId('message-item').filter({ hasText: subject });
    await item.waitFor({ timeout: 10_000 });
    // In the list: the code as the person types it; copying it does not open the message.
    await item.getByTestId('verification-code').filter({ hasText: '738205' }).click();
    await page.getByText('验证码 738205 已复制').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('738205');
    expect(await page.getByTestId('message-reader').count()).toBe(0);
    // In the reader too.
    await item.click();
    await page.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    expect(await page.getByTestId('message-reader').getByTestId('verification-code').textContent()).toBe(
      '738205',
    );
    await page.context().close();
  });

  it('shows the sender check in the reader and moves a message to Junk and back', async () => {
    const address = await newAddress();
    const page = await openInbox(address);
    await page.getByText('暂无邮件').waitFor();
    const subject = `可疑邮件 ${uniqueName('j')}`;
    await deliver(
      address,
      message(
        {
          From: 'Sender <sender@e2e.test>',
          To: address,
          Subject: `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`,
          'Content-Type': 'text/plain; charset=UTF-8',
        },
        '请查收',
      ),
    );
    const item = page.getByTestId('message-item').filter({ hasText: subject });
    await item.click();
    await page.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    // e2e.test publishes nothing: checked, but not verified.
    const badge = page.getByTestId('auth-badge');
    expect(await badge.getAttribute('data-trust')).toBe('unverified');
    await badge.hover();
    await page.getByTestId('auth-details').filter({ hasText: 'SPF：无' }).waitFor();

    await page.getByTestId('spam-toggle').filter({ hasText: '标记为垃圾邮件' }).click();
    await page.getByText('已移到垃圾邮件').waitFor();
    await item.waitFor({ state: 'detached' });
    await page.getByText('垃圾邮件', { exact: true }).click();
    await item.click();
    await page.getByTestId('spam-toggle').filter({ hasText: '不是垃圾邮件' }).click();
    await page.getByText('已移回收件箱').waitFor();
    await item.waitFor({ state: 'detached' });
    await page.getByText('全部', { exact: true }).click();
    await item.waitFor();
    await page.context().close();
  });

  it('runs nothing and loads nothing from a hostile HTML message until images are allowed', async () => {
    const address = await newAddress();
    const page = await openInbox(address);
    const title = await page.title();
    const origin = remote.origin;
    const html = [
      '<html><head><script>fetch("ORIGIN/head-script")</script></head>',
      '<body onload="fetch(\'ORIGIN/onload\')">',
      '<p>恶意邮件正文</p>',
      '<script>window.parent.document.title = "pwned"; fetch("ORIGIN/script");</script>',
      '<img src="ORIGIN/remote.png" alt="远程图片">',
      '<img src="x" onerror="fetch(\'ORIGIN/onerror\')">',
      '<a id="js-link" href="javascript:fetch(\'ORIGIN/javascript\')">点我</a>',
      '<div style="background-image:url(ORIGIN/css.png)">样式</div>',
      '<svg onload="fetch(\'ORIGIN/svg\')"></svg>',
      '<iframe src="ORIGIN/iframe"></iframe>',
      '</body></html>',
    ]
      .join('\n')
      .replaceAll('ORIGIN', origin);
    const subject = `危险内容 ${uniqueName('h')}`;
    await deliver(
      address,
      message(
        {
          From: 'attacker@e2e.test',
          To: address,
          Subject: subject,
          'Content-Type': 'text/html; charset=UTF-8',
          'Content-Transfer-Encoding': '8bit',
        },
        html,
      ),
    );
    await page.getByTestId('message-item').filter({ hasText: subject }).click();
    const frame = page.getByTestId('mail-frame');
    await frame.waitFor();
    // Same origin so that the reader can measure the frame from outside, never scripts.
    expect(await frame.getAttribute('sandbox')).toBe(
      'allow-same-origin allow-popups allow-popups-to-escape-sandbox',
    );
    const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
    expect(srcdoc).toContain("default-src 'none'");
    expect(srcdoc).not.toMatch(/<script|onload|onerror|javascript:/i);
    const body = page.frameLocator('[data-testid="mail-frame"]');
    await body.getByText('恶意邮件正文').waitFor();
    await body.getByText('点我').click();
    // Once the frame's document has loaded, everything it was going to fetch has been asked for.
    const mailFrame = await (await frame.elementHandle())?.contentFrame();
    if (!mailFrame) throw new Error('邮件正文的框架不存在');
    await mailFrame.waitForLoadState('load');
    expect(remote.requests).toEqual([]);
    expect(await page.title()).toBe(title);

    await page.getByRole('button', { name: '显示图片' }).click();
    await expect.poll(() => remote.requests, { timeout: 10_000 }).toContain('/remote.png');
    // The frame now holds the document with remote images; it has loaded when they all have.
    await mailFrame.waitForLoadState('load');
    expect(remote.requests.filter((path) => path !== '/remote.png')).toEqual([]);
    expect(await page.title()).toBe(title);
    await page.context().close();
  });

  it('shows a GBK subject and a GB18030 body right, and the raw source', async () => {
    const address = await newAddress();
    const page = await openInbox(address);
    const subject = `中文主题：邮局测试 ${uniqueName('g')}`;
    const text = '你好，世界！这是 GB18030 编码的正文，含扩展字符𠮷。';
    await deliver(
      address,
      message(
        {
          From: `=?GBK?B?${iconv.encode('李四', 'gbk').toString('base64')}?= <lisi@e2e.test>`,
          To: address,
          Subject: `=?GBK?B?${iconv.encode(subject, 'gbk').toString('base64')}?=`,
          'Content-Type': 'text/plain; charset=GB18030',
          'Content-Transfer-Encoding': '8bit',
        },
        iconv.encode(text, 'gb18030'),
      ),
    );
    const item = page.getByTestId('message-item').filter({ hasText: subject });
    await item.waitFor({ timeout: 10_000 });
    await item.click();
    await page.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
    expect(await page.getByTestId('reader-from').textContent()).toBe('李四 <lisi@e2e.test>');
    expect((await page.getByTestId('mail-text').textContent())?.trimEnd()).toBe(text);

    await page.getByRole('button', { name: /查看原文/ }).click();
    const raw = page.getByTestId('raw-source');
    await raw.waitFor();
    expect(await raw.textContent()).toContain('Subject: =?GBK?B?');
    await page.context().close();
  });

  it('shows inline images from the message itself, downloads attachments and deletes by time range', async () => {
    const address = await newAddress();
    const page = await openInbox(address);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
      'base64',
    );
    const subject = `带附件 ${uniqueName('a')}`;
    const body = [
      '--outer',
      'Content-Type: multipart/related; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/html; charset=UTF-8',
      '',
      '<p>内嵌图片如下</p><img src="cid:logo@e2e" alt="标志">',
      '--inner',
      'Content-Type: image/png',
      'Content-ID: <logo@e2e>',
      'Content-Disposition: inline; filename="logo.png"',
      'Content-Transfer-Encoding: base64',
      '',
      png.toString('base64'),
      '--inner--',
      '--outer',
      'Content-Type: text/plain; charset=UTF-8',
      "Content-Disposition: attachment; filename*=UTF-8''%E6%8A%A5%E5%91%8A.txt",
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('附件内容 123').toString('base64'),
      '--outer--',
      '',
    ].join('\r\n');
    await deliver(
      address,
      message(
        {
          From: 'files@e2e.test',
          To: address,
          Subject: subject,
          'Content-Type': 'multipart/mixed; boundary="outer"',
        },
        body,
      ),
    );
    await page.getByTestId('message-item').filter({ hasText: subject }).click();
    const frame = page.frameLocator('[data-testid="mail-frame"]');
    await frame.getByText('内嵌图片如下').waitFor();
    await expect
      .poll(() => frame.locator('img').getAttribute('src'), { timeout: 10_000 })
      .toMatch(/^data:image\/png;base64,/);
    expect(await page.getByRole('button', { name: '显示图片' }).count()).toBe(0);

    const attachment = page.getByTestId('attachment').filter({ hasText: '报告.txt' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      attachment.getByRole('button', { name: /下\s*载/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('报告.txt');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path, 'utf8')).toBe('附件内容 123');

    await page.getByRole('button', { name: '按时间删除' }).click();
    const dialog = page.getByRole('dialog');
    // The picker takes the browser's local time (the context runs in Asia/Shanghai).
    const [from, until] = await page.evaluate(() => {
      const pad = (value: number) => String(value).padStart(2, '0');
      const format = (date: Date) =>
        `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
      return [format(new Date(Date.now() - 3_600_000)), format(new Date(Date.now() + 3_600_000))];
    });
    const inputs = dialog.locator('.ant-picker-input input');
    await inputs.nth(0).click();
    await inputs.nth(0).fill(from);
    await inputs.nth(0).press('Enter');
    await inputs.nth(1).fill(until);
    await inputs.nth(1).press('Enter');
    await dialog.getByRole('button', { name: /删\s*除/ }).click();
    await page.getByText(/已删除 1 封邮件/).waitFor();
    await page.getByText('暂无邮件').waitFor();
    await page.context().close();
  });

  it('gives a temporary mailbox in one click on /home, which receives mail live', async () => {
    const { context, page } = await suite.newPage();
    await page.goto(`${suite.baseUrl}/home`);
    await page.getByRole('button', { name: /一键获取临时邮箱/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/inbox`);
    const own = page.getByTestId('own-address');
    await own.waitFor();
    const address = ((await own.textContent()) ?? '').trim();
    expect(address).toMatch(new RegExp(`^[^@\\s]+@${domain.name.replaceAll('.', '\\.')}$`));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await page.getByText('暂无邮件').waitFor();

    const subject = `验证码 ${uniqueName('c')}`;
    await deliver(
      address,
      message(
        {
          From: 'service@e2e.test',
          To: address,
          Subject: subject,
          'Content-Type': 'text/plain; charset=UTF-8',
        },
        '你的验证码是 123456',
      ),
    );
    await page.getByTestId('message-item').filter({ hasText: subject }).waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('adds and deletes a content filter through the screen, with a bad pattern refused in Chinese', async () => {
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    await page
      .locator('.ant-layout-sider')
      .getByRole('menuitem', { name: /内容过滤/ })
      .click();
    await page.waitForURL(`${suite.baseUrl}/user/contentFilter`);
    await page.getByText('还没有过滤规则').waitFor();

    await page.getByRole('button', { name: /添加规则/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('匹配方式').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '正则表达式' }).click();
    await dialog.getByLabel('正则表达式').fill('(未闭合');
    await dialog.getByLabel('处理方式').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '拒收' }).click();
    await dialog.getByText('拒收：收信时直接退回').waitFor();
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    const error = page.getByTestId('filter-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/[\u4e00-\u9fa5]/);

    const pattern = `^推广${uniqueName('p')}`;
    await dialog.getByLabel('正则表达式').fill(pattern);
    await dialog.getByRole('button', { name: /添\s*加/ }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.locator('.ant-table-row').filter({ hasText: pattern });
    await row.waitFor();
    expect(await row.textContent()).toContain('拒收');

    // The rule works: a matching message is refused over SMTP.
    const address = await newAddress();
    const refused = await sendSmtp(
      suite.server.smtpPort,
      'ads@e2e.test',
      address,
      message(
        {
          From: 'ads@e2e.test',
          To: address,
          Subject: `=?UTF-8?B?${Buffer.from(`${pattern.slice(1)}大促`).toString('base64')}?=`,
        },
        '广告',
      ),
    );
    expect(refused).toMatch(/^550/);

    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await row.waitFor({ state: 'detached' });
    await page.getByText('还没有过滤规则').waitFor();
    await context.close();
  });
});
