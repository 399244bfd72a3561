import { afterAll, describe, expect, it } from 'vitest';
import { freeDnsPort, type RunningDnsServer, startDnsmasq } from '../../server/test/support/dns-servers';
import { createSysAccount, uniqueName } from './support/api';
import { loginThroughForm } from './support/browser';
import { setUpBrowserSuite } from './support/suite';

const MAIL_HOST = 'mx.youju.test';
const DOMAIN = 'web.youju.test';

describe('/user/domain', () => {
  let dns: RunningDnsServer | undefined;
  let dnsPort: number;
  const suite = setUpBrowserSuite(async () => {
    dnsPort = await freeDnsPort();
    return { env: { DNS_SERVERS: `127.0.0.1:${dnsPort}`, MAIL_HOSTNAME: MAIL_HOST } };
  });
  afterAll(async () => {
    await dns?.stop();
  });

  it('adds a domain, shows its DKIM record and explains a DNS check record by record', async () => {
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    await page.getByRole('menuitem', { name: /域名管理/ }).click();
    await page.waitForURL(`${suite.baseUrl}/user/domain`);
    await page.getByText('还没有域名').waitFor();

    // Add
    await page.getByRole('button', { name: /添加域名/ }).click();
    const addDialog = page.getByRole('dialog', { name: '添加域名' });
    await addDialog.getByLabel('域名').fill(DOMAIN);
    await addDialog.getByRole('button', { name: /添\s*加/ }).click();
    await page.getByText(`已添加域名 ${DOMAIN}`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(DOMAIN.replace(/\./g, '\\.')) });
    await row.getByText('未检查').waitFor();

    // DKIM record
    await row.getByRole('button', { name: 'DKIM 记录' }).click();
    const dkimDialog = page.getByRole('dialog', { name: `DKIM 记录：${DOMAIN}` });
    const recordName = (await dkimDialog.getByTestId('dkim-record-name').textContent())?.trim() ?? '';
    const recordValue = (await dkimDialog.getByTestId('dkim-record-value').textContent())?.trim() ?? '';
    expect(recordName).toMatch(new RegExp(`^yj\\d{6}\\._domainkey\\.${DOMAIN.replace(/\./g, '\\.')}$`));
    expect(recordValue).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    await expect(dkimDialog.getByRole('button', { name: /复制/ }).count()).resolves.toBeGreaterThan(0);
    await dkimDialog.getByRole('button', { name: '关 闭' }).click();

    // Publish MX, SPF and DKIM but no DMARC on a real DNS server.
    dns = await startDnsmasq(
      {
        local: ['youju.test'],
        mx: [{ name: DOMAIN, host: MAIL_HOST, preference: 10 }],
        txt: [
          { name: DOMAIN, value: `v=spf1 mx a:${MAIL_HOST} ~all` },
          { name: recordName, value: recordValue },
        ],
      },
      dnsPort,
    );

    await row.getByRole('button', { name: '检查 DNS' }).click();
    const checkDialog = page.getByRole('dialog', { name: `检查 DNS：${DOMAIN}` });
    await checkDialog.getByText('检查结果').waitFor();
    const resultRow = (purpose: string) => checkDialog.getByRole('row', { name: new RegExp(purpose) });
    await expect(resultRow('MX（收信）').getByText('正确', { exact: true }).count()).resolves.toBe(1);
    await expect(resultRow('SPF（发信授权）').getByText('正确', { exact: true }).count()).resolves.toBe(1);
    await expect(resultRow('DKIM（邮件签名）').getByText('正确', { exact: true }).count()).resolves.toBe(1);
    const dmarc = resultRow('DMARC（验证策略）');
    await expect(dmarc.getByText('缺失', { exact: true }).count()).resolves.toBe(1);
    await expect(dmarc.textContent()).resolves.toContain('没有找到 DMARC 记录');
    await expect(dmarc.textContent()).resolves.toContain('主机记录 _dmarc');
    await checkDialog.getByText('部分正确').waitFor();
    await checkDialog.getByRole('button', { name: '关 闭' }).click();

    // The list shows the stored status.
    await row.getByText('部分正确').waitFor();

    // A second, ed25519 selector signs beside RSA; both keys are listed with their records.
    await row.getByRole('button', { name: 'DKIM 记录' }).click();
    await dkimDialog.getByRole('button', { name: '添加 Ed25519 签名' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /添\s*加/ })
      .click();
    const edRow = dkimDialog.getByRole('row', { name: /Ed25519/ });
    await edRow.getByText('签名中').waitFor();
    await expect(edRow.textContent()).resolves.toMatch(/v=DKIM1; k=ed25519; p=/);
    await dkimDialog.getByRole('row', { name: /RSA/ }).getByText('签名中').waitFor();
    await expect(dkimDialog.getByRole('button', { name: '添加 Ed25519 签名' }).count()).resolves.toBe(0);
    await dkimDialog.getByRole('button', { name: '关 闭' }).click();
    await context.close();
  });

  it('shows a user’s new domain as pending with its TXT record, and verifies it against real DNS', async () => {
    const username = uniqueName('owner');
    await createSysAccount(suite.admin, { username, password: 'owner-pass-1', role: 'user' });
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, username, 'owner-pass-1');
    await page.goto(`${suite.baseUrl}/user/domain`);
    const name = 'claimed.verify.test';
    await page.getByRole('button', { name: /添加域名/ }).click();
    const addDialog = page.getByRole('dialog', { name: '添加域名' });
    await addDialog.getByLabel('域名').fill(name);
    await addDialog.getByRole('button', { name: /添\s*加/ }).click();
    await page.getByText('有域名等待验证所有权').waitFor();
    await page.getByTestId(`verify-${name}`).click();
    const dialog = page.getByRole('dialog', { name: `验证域名所有权：${name}` });
    const record = dialog.getByTestId('verification-record');
    await record.getByText(`_youju.${name}`).waitFor();
    const value = (await record.getByText(/^youju-verify=/).textContent())?.trim() ?? '';
    expect(value).toMatch(/^youju-verify=[0-9a-f]{32}$/);

    // Not published yet: the server's reason is shown.
    await dns?.stop();
    dns = await startDnsmasq({ local: ['verify.test'] }, dnsPort);
    await dialog.getByTestId('verify-domain').click();
    await page.getByText(`未找到 _youju.${name} 的 TXT 记录`).first().waitFor();

    // Published on the name server: verified.
    await dns.stop();
    dns = await startDnsmasq({ local: ['verify.test'], txt: [{ name: `_youju.${name}`, value }] }, dnsPort);
    await dialog.getByTestId('verify-domain').click();
    await page.getByText(`${name} 已通过验证`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(name.replace(/\./g, '\\.')) });
    await row.getByText('已验证').waitFor();
    await context.close();
  });

  it('shows administrators the certificate list with a reload button', async () => {
    const { context, page } = await suite.newPage();
    await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
    await page.goto(`${suite.baseUrl}/user/domain`);
    await page.getByText('TLS 证书').waitFor();
    await page.getByRole('button', { name: /重新加载证书/ }).click();
    await page.getByText(/已重新加载 0 个证书/).waitFor();
    await context.close();
  });
});
