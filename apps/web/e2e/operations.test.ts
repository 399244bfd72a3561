import type {
  ApiKeyView,
  CreatedAddress,
  DashboardView,
  RegEmailData,
  SessionItem,
  SettingData,
} from '@youju/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { freeDnsPort, type RunningDnsServer, startDnsmasq } from '../../server/test/support/dns-servers';
import { addDomain, apiWithKey, createSysAccount, getVariables, ok, uniqueName } from './support/api';
import { latinWords } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

/** The chunks that carry echarts: none of them may load with the first page. */
const CHART_CHUNK = /\/assets\/(use-chart-canvas|radar-chart-canvas|line-chart-canvas)-[^/]+\.js$/;

describe('running the service: dashboard, settings, version, security, interface', () => {
  // The users' domains prove ownership as a real owner would: a TXT record on a name server.
  let dnsPort: number;
  let dns: RunningDnsServer | undefined;
  const verificationRecords: { name: string; value: string }[] = [];
  const suite = setUpBrowserSuite(async () => {
    dnsPort = await freeDnsPort();
    return { env: { DNS_SERVERS: `127.0.0.1:${dnsPort}` } };
  });
  afterAll(async () => {
    await dns?.stop();
  });

  async function userWithDomain(
    label: string,
  ): Promise<{ token: string; username: string; domain: string; domainId: number }> {
    const username = uniqueName(label);
    await createSysAccount(suite.admin, {
      username,
      password: 'secret-123',
      role: 'user',
    });
    const token = await suite.login(username, 'secret-123');
    const domain = `${username}.youju.test`;
    const added = await addDomain(suite.api(token), { name: domain, publicRegistration: true });
    if (!added.verification) throw new Error('新域名没有所有权验证记录');
    verificationRecords.push(added.verification);
    await dns?.stop();
    dns = await startDnsmasq({ local: ['youju.test'], txt: verificationRecords }, dnsPort);
    ok(await suite.api(token).post('/user/verifyDomain', { id: added.id }));
    return { token, username, domain, domainId: added.id };
  }

  it('/user/dashboard shows the figures, the line chart and the radar chart; echarts stays out of the first page', async () => {
    const { page, context } = await suite.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${suite.baseUrl}/home`);
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => CHART_CHUNK.test(url))).toEqual([]);

    await page.evaluate((value) => localStorage.setItem('token', value), suite.adminToken);
    await page.goto(`${suite.baseUrl}/user/dashboard`);
    await page.getByText('今日收信').waitFor();
    await page.locator('.dashboard-radar-chart canvas').first().waitFor();
    await page.locator('.dashboard-line-chart canvas').first().waitFor();
    expect(scripts.some((url) => /radar-chart-canvas/.test(url))).toBe(true);

    const data = ok(await suite.admin.get<DashboardView>('/user/getDashboard'));
    const card = page.getByLabel('域名', { exact: true });
    expect(await card.locator('.ant-statistic-content-value').textContent()).toBe(
      String(data.totals.domains),
    );
    expect(await page.getByText('全站数据').count()).toBe(1);
    expect(await page.getByText(/健康度/).count()).toBeGreaterThan(0);
    // The 开始使用 checklist on the dashboard names the DNS records as everyone writes them.
    const recordNames = ['DNS', 'MX', 'SPF', 'DKIM', 'DMARC'];
    expect(await latinWords(page, [suite.server.adminUser, ...recordNames])).toEqual([]);
    await context.close();
  });

  it('/user/setting saves system settings at once, keeps secrets masked and validates in Chinese', async () => {
    const page = await suite.openAs(suite.adminToken, '/user/setting');
    const form = page.locator('form[id="system-settings-form"]');
    await form.getByLabel('站点名称').waitFor();
    const siteName = `测试站${Date.now() % 1000}`;
    await form.getByLabel('站点名称').fill(siteName);
    await form.getByLabel('公告').fill('今晚十点维护');
    await form.getByLabel('外发中继地址').fill('smtp://mailer:Relay-Secret-88@relay.example.com:587');
    await form.getByRole('button', { name: /保存系统设置/ }).click();
    await page.getByText('系统设置已保存，立即生效').waitFor();

    const variables = await getVariables(suite.baseUrl);
    expect(variables.settings).toMatchObject({ siteName, announcement: '今晚十点维护' });

    // After a reload the relay password shows masked and never in clear.
    await page.reload();
    await form.getByLabel('外发中继地址').waitFor();
    expect(await form.getByLabel('外发中继地址').inputValue()).toBe(
      'smtp://mailer:******@relay.example.com:587',
    );
    expect(await page.content()).not.toContain('Relay-Secret-88');

    // Saving again with the mask keeps the password.
    await form.getByLabel('单个 IP 登录失败上限').fill('30');
    await form.getByRole('button', { name: /保存系统设置/ }).click();
    await page.getByText('系统设置已保存，立即生效').first().waitFor();
    const saved = ok(await suite.admin.get<SettingData>('/user/getSetting'));
    expect(saved.system).toMatchObject({ loginMaxFailuresPerIp: 30, relayPasswordSet: true });

    // A bad value is explained next to the field, and nothing is sent.
    await form.getByLabel('外发中继地址').fill('http://relay.example.com');
    await form.getByRole('button', { name: /保存系统设置/ }).click();
    await page.getByText('外发中继地址必须以 smtp:// 或 smtps:// 开头').waitFor();

    // Personal settings.
    const personal = page.locator('form[id="personal-settings-form"]');
    await personal.getByLabel('显示名称').fill('管理员小王');
    await personal.getByRole('button', { name: /保存个人设置/ }).click();
    await page.getByText('个人设置已保存').waitFor();
    expect(ok(await suite.admin.get<SettingData>('/user/getSetting')).personal.displayName).toBe(
      '管理员小王',
    );
    expect(
      await latinWords(page, [
        'smtps',
        'smtp',
        'relay',
        'example',
        'com',
        'mailer',
        'alipay',
        'wxpay',
        'qqpay',
        suite.server.adminUser,
        'IP',
        'https',
        'http',
        'pay',
        'mail',
        'MB',
        // the anti-abuse card names role addresses and address ranges as they are written
        'postmaster',
        'billing',
        'CIDR',
        // the sender checks are named as written (protocols and DMARC's policy value)
        'DMARC',
        'SPF',
        'DKIM',
        'SMTP',
        'reject',
        // where scheduled backups go (a folder name)
        'backups',
      ]),
    ).toEqual([]);
    await page.context().close();
    ok(
      await suite.admin.post('/user/updateSetting', {
        system: { siteName: '邮局', announcement: '', relayUrl: '' },
      }),
    );
  });

  it('/user/setting gives a mailbox user personal settings and the password change, not the system form', async () => {
    const owner = await userWithDomain('mailowner');
    const registered = ok(
      await suite.api().post<RegEmailData>('/regEmail', {
        domainId: owner.domainId,
        localPart: 'reader',
        password: 'mailbox-123',
      }),
    );
    const page = await suite.openAs(registered.token, '/user/setting');
    await page.getByText('个人设置', { exact: true }).waitFor();
    await page.getByText('修改密码', { exact: true }).waitFor();
    expect(await page.locator('form[id="system-settings-form"]').count()).toBe(0);

    await page.getByLabel('原密码').fill('mailbox-123');
    await page.getByLabel('新密码', { exact: true }).fill('mailbox-456');
    await page.getByLabel('确认新密码').fill('mailbox-456');
    await page.getByRole('button', { name: /保存新密码/ }).click();
    await page.getByText('密码已修改').waitFor();
    const stored = await page.evaluate(() => localStorage.getItem('token'));
    expect(stored).not.toBe(registered.token);
    ok(await suite.api().post('/loginEmail', { email: registered.email, password: 'mailbox-456' }));
    await page.context().close();
  });

  it('/user/version shows the release and renders the changelog', async () => {
    const page = await suite.openAs(suite.adminToken, '/user/version');
    await page.getByText('更新日志', { exact: true }).first().waitFor();
    await page.getByText('数据库结构版本').waitFor();
    expect(await page.getByText('SQLite（内置）').count()).toBe(1);
    // Markdown became headings and list items, not raw text.
    const headings = await page.locator('.markdown-view h2, .markdown-view h3').allTextContents();
    expect(headings.some((text) => text.includes('0.1.0'))).toBe(true);
    expect(await page.locator('.markdown-view li').count()).toBeGreaterThan(2);
    expect(await page.locator('.markdown-view').textContent()).not.toContain('## ');
    await page.context().close();
  });

  it('/user/safe: change password, sessions, login history and the blacklist with own-IP protection', async () => {
    const username = uniqueName('safe');
    await createSysAccount(suite.admin, {
      username,
      password: 'secret-123',
      role: 'admin',
    });
    await suite.api().post('/login', { username, password: 'wrong-password' });
    const token = await suite.login(username, 'secret-123');
    const other = await suite.login(username, 'secret-123');
    const page = await suite.openAs(token, '/user/safe');

    // Sessions: this browser is the current one; end the other.
    const sessions = page.locator('.ant-card').filter({ hasText: '登录中的设备' });
    await sessions.getByText('当前会话').waitFor();
    expect(await sessions.locator('tbody tr.ant-table-row').count()).toBe(2);
    await sessions.getByRole('button', { name: /结束会话/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /结\s*束/ })
      .click();
    await page.getByText('已结束该会话').waitFor();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.ant-card')]
          .find((card) => card.textContent?.includes('登录中的设备'))
          ?.querySelectorAll('tbody tr.ant-table-row').length === 1,
    );
    expect((await suite.api(other).get<SessionItem[]>('/user/getSessions')).error).not.toBe(0);

    // Login history: the failure and the successes.
    const history = page.locator('.ant-card').filter({ hasText: '登录记录' });
    await history.getByText('失败：密码错误').waitFor();
    expect(await history.getByText('成功', { exact: true }).count()).toBeGreaterThanOrEqual(2);

    // Blacklist: add a range, refuse one's own address until confirmed, remove.
    const blacklist = page.locator('.ant-card').filter({ hasText: 'IP 黑名单' });
    await blacklist.getByLabel('IP 地址').fill('192.0.2.0/24');
    await blacklist.getByLabel('原因').fill('扫描端口');
    await blacklist.getByRole('button', { name: /加入黑名单/ }).click();
    await blacklist.getByRole('row').filter({ hasText: '192.0.2.0/24' }).waitFor();
    expect(await blacklist.getByRole('row').filter({ hasText: '192.0.2.0/24' }).textContent()).toContain(
      '扫描端口',
    );

    await blacklist.getByLabel('IP 地址').fill('127.0.0.1');
    await blacklist.getByRole('button', { name: /加入黑名单/ }).click();
    const warning = page.locator('.ant-modal-confirm');
    await warning.getByText(/包含您当前的 IP 地址/).waitFor();
    await warning.getByRole('button', { name: /取\s*消/ }).click();
    expect(await blacklist.getByRole('row').filter({ hasText: '127.0.0.1' }).count()).toBe(0);

    await blacklist
      .getByRole('row')
      .filter({ hasText: '192.0.2.0/24' })
      .getByRole('button', { name: /解\s*除/ })
      .click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /解\s*除/ })
      .click();
    await blacklist.getByRole('row').filter({ hasText: '192.0.2.0/24' }).waitFor({ state: 'detached' });

    // Change password: the fresh token replaces the old one in local storage.
    await page.getByLabel('原密码').fill('secret-123');
    await page.getByLabel('新密码', { exact: true }).fill('secret-456');
    await page.getByLabel('确认新密码').fill('secret-456');
    await page.getByRole('button', { name: /保存新密码/ }).click();
    await page.getByText('密码已修改').waitFor();
    const stored = await page.evaluate(() => localStorage.getItem('token'));
    expect(stored).not.toBe(token);
    expect((await suite.api(token).get('/user/getSessions')).error).toBe(302);
    expect((await suite.api(stored ?? '').get('/user/getSessions')).error).toBe(0);
    await page.reload();
    await page.getByText('当前会话').waitFor();
    expect(
      await latinWords(page, [
        username,
        '2001:db8::/32',
        'IPv4',
        'IPv6',
        'CIDR',
        'SMTP',
        'HeadlessChrome',
        'Chrome',
        'Linux',
        'node',
        'IP',
      ]),
    ).toEqual([]);
    await page.context().close();
  });

  it('/user/interface shows the key once with curl examples on the user domain, masked later, and refreshes it', async () => {
    const user = await userWithDomain('apikey');
    const page = await suite.openAs(user.token, '/user/interface');
    await page.getByText('请立即复制并妥善保存密钥').waitFor();
    const key = (await page.locator('.api-key-value').first().textContent())?.trim() ?? '';
    expect(key).toMatch(/^yj_[A-Za-z0-9_-]{32}$/);
    const commands = await page.locator('.curl-command').allTextContents();
    expect(commands).toHaveLength(5);
    expect(commands.every((command) => command.includes(`X-API-Key: ${key}`))).toBe(true);
    expect(commands.some((command) => command.includes(`test@${user.domain}`))).toBe(true);
    expect(await page.locator('.curl-examples .ant-typography-copy').count()).toBe(5);

    // The key works with the open API exactly as the example says.
    const created = await apiWithKey(suite.baseUrl, key).post<CreatedAddress>('/open/createEmail', {
      localPart: 'test',
    });
    expect(ok(created).address).toBe(`test@${user.domain}`);

    // Shown once: after a reload it is masked.
    await page.reload();
    await page.locator('.api-key-value').first().waitFor();
    const masked = (await page.locator('.api-key-value').first().textContent())?.trim() ?? '';
    expect(masked).toContain('****');
    expect(masked.endsWith(key.slice(-4))).toBe(true);
    expect(await page.content()).not.toContain(key);

    // Refresh after confirming: a new key in full; the old one stops working.
    await page.getByRole('button', { name: /重置密钥/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /重\s*置/ })
      .click();
    await page.getByText('已生成新密钥，旧密钥已失效').waitFor();
    const fresh = (await page.locator('.api-key-value').first().textContent())?.trim() ?? '';
    expect(fresh).toMatch(/^yj_/);
    expect(fresh).not.toBe(key);
    const refused = await apiWithKey(suite.baseUrl, key).fetch(`/open/getInbox?address=test@${user.domain}`);
    expect(refused.status).toBe(403);
    expect(ok(await suite.api(user.token).get<ApiKeyView>('/user/getKey')).masked).toBe(true);
    await page.context().close();

    // /use shows the same calls in general form.
    const { page: usePage, context } = await suite.newPage();
    await usePage.goto(`${suite.baseUrl}/use`);
    await usePage.getByText('接口调用示例').waitFor();
    const general = await usePage.locator('.curl-command').allTextContents();
    expect(general).toHaveLength(5);
    expect(general[0]).toContain('X-API-Key: 你的密钥');
    await context.close();
  });

  it('shows the new menu entries in Chinese to the roles that should see them', async () => {
    const page = await suite.openAs(suite.adminToken, '/user/dashboard');
    const menu = page.locator('.ant-layout-sider').getByRole('menuitem');
    await menu.first().waitFor();
    const names = (await menu.allInnerTexts()).map((text) => text.trim());
    for (const name of ['接口', '仪表盘', '设置', '版本信息', '安全中心']) expect(names).toContain(name);
    await page.context().close();
  });
});
