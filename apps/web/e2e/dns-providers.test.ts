import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type RunningStandIn,
  startAlidnsStandIn,
  startCloudflareStandIn,
} from '../../server/test/support/dns-api-standins';
import { type RunningDnsServer, startDnsmasq } from '../../server/test/support/dns-servers';
import { addDomain } from './support/api';
import { setUpBrowserSuite } from './support/suite';

/**
 * /user/domain: choosing a DNS provider that speaks an HTTP API and letting setDNS write the
 * records, on a desktop screen and on a 375 px phone. The providers' real APIs are out of reach,
 * so the server is pointed (ALIDNS_API_URL, CLOUDFLARE_API_URL) at loopback stand-ins that check
 * the signatures as the services do.
 */
const MAIL_HOST = 'mx.elsewhere.test';
const ALI_DOMAIN = 'ali-web.youju.test';
const CF_DOMAIN = 'cf-web.youju.test';
const ALI = { zone: ALI_DOMAIN, keyId: 'LTAI5tWebKeyId0001', secret: 'WebAliSecret0123456789abcdef' };
const CF = { zone: CF_DOMAIN, secret: 'cfWebToken_0123456789abcdefghijklmn' };

describe('DNS providers on /user/domain', () => {
  let alidns: RunningStandIn | undefined;
  let cloudflare: RunningStandIn | undefined;
  let dns: RunningDnsServer | undefined;
  const suite = setUpBrowserSuite(async () => {
    alidns = await startAlidnsStandIn(ALI);
    cloudflare = await startCloudflareStandIn(CF);
    // MAIL_HOSTNAME resolves, but not to this machine: the check dialog must say so.
    dns = await startDnsmasq({
      local: ['elsewhere.test', 'youju.test'],
      a: [{ name: MAIL_HOST, ip: '192.0.2.77' }],
    });
    return {
      env: {
        MAIL_HOSTNAME: MAIL_HOST,
        DNS_SERVERS: dns.address,
        ALIDNS_API_URL: alidns.url,
        CLOUDFLARE_API_URL: `${cloudflare.url}/client/v4`,
      },
    };
  });
  afterAll(async () => {
    await alidns?.stop();
    await cloudflare?.stop();
    await dns?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('not started');
    return value;
  };

  /** The domain, added unless a retried test added it already. */
  async function addOnce(name: string): Promise<void> {
    const domains = await suite.admin.get<Array<{ name: string }>>('/user/getDomains');
    if (!domains.data?.some((domain) => domain.name === name)) await addDomain(suite.admin, { name });
  }

  async function noSidewaysScroll(page: Page): Promise<void> {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  }

  /** Chooses `provider` in the dialog, fills its fields and saves. */
  async function chooseProvider(
    page: Page,
    domain: string,
    provider: string,
    fields: Array<[label: string, value: string]>,
    width?: number,
  ): Promise<void> {
    const row = page.getByRole('row', { name: new RegExp(domain.replace(/\./g, '\\.')) });
    await row.getByRole('button', { name: 'DNS 服务商' }).click();
    const dialog = page.getByRole('dialog', { name: `DNS 服务商：${domain}` });
    await dialog.getByLabel('服务商').click();
    await page.locator('.ant-select-item-option').filter({ hasText: provider }).click();
    // The RFC 2136 fields are gone once an API provider is chosen.
    await expect(dialog.getByLabel('TSIG 密钥名').count()).resolves.toBe(0);
    for (const [label, value] of fields) await dialog.getByLabel(label, { exact: true }).fill(value);
    if (width) {
      const box = await page.locator('.ant-modal').filter({ hasText: '服务商' }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    }
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('DNS 服务商已保存').waitFor();
  }

  /** setDNS from the row, and the written-records dialog with both names of each record. */
  async function writeRecords(page: Page, domain: string): Promise<void> {
    const row = page.getByRole('row', { name: new RegExp(domain.replace(/\./g, '\\.')) });
    await row.getByRole('button', { name: '设置 DNS' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /写\s*入/ })
      .click();
    const written = page.getByRole('dialog', { name: `已写入的记录：${domain}` });
    await written.getByText(`_dmarc.${domain}.`).waitFor();
    const hosts = await written.getByTestId('record-host').allTextContents();
    expect(hosts).toEqual(expect.arrayContaining(['@', '_dmarc']));
    expect(hosts.some((host) => /^yj\d{6}\._domainkey$/.test(host))).toBe(true);
    const dmarcRow = written.getByRole('row', { name: /DMARC（验证策略）/ });
    // Copy buttons for the zone-relative name, the full name and the value.
    await expect(dmarcRow.locator('.ant-typography-copy').count()).resolves.toBeGreaterThanOrEqual(3);
    await written.getByRole('button', { name: '关 闭' }).click();
  }

  it('sets the records through Alibaba Cloud DNS on a desktop screen, and warns about MAIL_HOSTNAME', async () => {
    await addOnce(ALI_DOMAIN);
    const page = await suite.openAs(suite.adminToken, '/user/domain');
    await page.setViewportSize({ width: 1280, height: 900 });
    await chooseProvider(page, ALI_DOMAIN, '阿里云 DNS', [
      ['AccessKey ID', ALI.keyId],
      ['AccessKey Secret', ALI.secret],
    ]);
    await writeRecords(page, ALI_DOMAIN);
    const records = started(alidns).records;
    expect(records.filter((r) => r.type === 'MX').map((r) => r.value)).toEqual([MAIL_HOST]);
    expect(records.filter((r) => r.name === `_dmarc.${ALI_DOMAIN}`).map((r) => r.value)).toEqual([
      'v=DMARC1; p=quarantine; adkim=r; aspf=r',
    ]);

    // The provider dialog shows the saved kind and key ID, never the secret.
    const row = page.getByRole('row', { name: new RegExp(ALI_DOMAIN.replace(/\./g, '\\.')) });
    await row.getByRole('button', { name: 'DNS 服务商' }).click();
    const dialog = page.getByRole('dialog', { name: `DNS 服务商：${ALI_DOMAIN}` });
    await expect(dialog.getByLabel('AccessKey ID', { exact: true }).inputValue()).resolves.toBe(ALI.keyId);
    await expect(dialog.textContent()).resolves.not.toContain(ALI.secret);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();

    await row.getByRole('button', { name: '检查 DNS' }).click();
    const check = page.getByRole('dialog', { name: `检查 DNS：${ALI_DOMAIN}` });
    const warning = check.getByTestId('hostname-warning');
    await warning.waitFor();
    await expect(warning.textContent()).resolves.toContain('192.0.2.77');
    await check.getByText(`_dmarc.${ALI_DOMAIN}.`).waitFor();
    await page.context().close();
  });

  it('sets the records through Cloudflare on a 375 px phone', async () => {
    await addOnce(CF_DOMAIN);
    const { page } = await suite.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${suite.baseUrl}/home`);
    await page.evaluate((token) => localStorage.setItem('token', token), suite.adminToken);
    await page.goto(`${suite.baseUrl}/user/domain`);
    await page.getByRole('row', { name: /cf-web\.youju\.test/ }).waitFor();
    await noSidewaysScroll(page);
    await chooseProvider(page, CF_DOMAIN, 'Cloudflare', [['API 令牌（API Token）', CF.secret]], 375);
    await writeRecords(page, CF_DOMAIN);
    await noSidewaysScroll(page);
    const records = started(cloudflare).records;
    expect(records.filter((r) => r.type === 'MX').map((r) => [r.value, r.priority])).toEqual([
      [MAIL_HOST, 10],
    ]);
    expect(records.filter((r) => r.name === CF_DOMAIN && r.type === 'TXT').map((r) => r.value)).toEqual([
      `v=spf1 mx a:${MAIL_HOST} ~all`,
    ]);
    await page.context().close();
  });
});
