import type { CertificatesData } from '@youju/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCertificate, makeCertificate } from '../../server/test/support/certificates';
import { generateTsigKey, type RunningDnsServer, startBind } from '../../server/test/support/dns-servers';
import { pebbleInstalled, type RunningPebble, startPebble } from '../../server/test/support/pebble';
import { freePort } from '../../server/test/support/ports';
import { waitFor } from '../../server/test/support/wait-for';
import { createSysAccount, ok, uniqueName } from './support/api';
import { setUpBrowserSuite } from './support/suite';

// BIND's zone has `ns1.<zone> A 127.0.0.1`: Pebble (Let's Encrypt's test CA) validates HTTP-01 on loopback.
const ZONE = 'certs-e2e.youju.test';
const HOST = `ns1.${ZONE}`;
const MANUAL = 'manual.youju.test';

/**
 * /user/domain's TLS 证书 card: a certificate really issued by Pebble (ACME) beside one the operator
 * put there (手动), with issuer, expiry, ACME state, last attempt, next renewal and 立即续期, on a
 * desktop and on a 375 px phone.
 */
describe.skipIf(!pebbleInstalled)('certificates screen: ACME status and 立即续期', () => {
  let bind: RunningDnsServer;
  let pebble: RunningPebble;
  const suite = setUpBrowserSuite(async () => {
    bind = await startBind(ZONE, generateTsigKey('youju-certs-e2e'));
    pebble = await startPebble({ dnsServer: bind.address, httpPort: await freePort() });
    return {
      env: {
        MAIL_HOSTNAME: HOST,
        ACME_EMAIL: `postmaster@${ZONE}`,
        ACME_DIRECTORY_URL: pebble.directoryUrl,
        ACME_CA_BUNDLE: pebble.caBundle,
        ACME_HTTP_PORT: String(pebble.httpPort),
      },
    };
  });
  afterAll(async () => {
    await pebble?.stop();
    await bind?.stop();
  });

  beforeAll(async () => {
    await installCertificate(suite.server.dataDir, MANUAL, makeCertificate([MANUAL], 90));
    ok(await suite.admin.post<CertificatesData>('/user/reloadCertificates', {}));
    // The first check at start orders the missing certificate from Pebble.
    await waitFor(
      async () => {
        const data = ok(await suite.admin.get<CertificatesData>('/user/getCertificates'));
        return data.certificates.find((entry) => entry.directory === HOST)?.acme?.state === 'valid';
      },
      { timeoutMs: 60_000, what: 'the ACME certificate from Pebble' },
    );
  }, 90_000);

  async function openCertificates(width: number, height: number): Promise<Page> {
    const { page } = await suite.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(`${suite.baseUrl}/home`);
    await page.evaluate((value) => localStorage.setItem('token', value), suite.adminToken);
    await page.goto(`${suite.baseUrl}/user/domain`);
    await page.getByText('TLS 证书').waitFor();
    await page.getByTestId('acme-state').waitFor();
    return page;
  }

  function certificateBlock(page: Page, name: string) {
    return page.getByTestId('certificate').filter({ hasText: name });
  }

  it('shows the ACME certificate and the manual one on a desktop, and renews now', async () => {
    const page = await openCertificates(1280, 900);
    try {
      const acme = certificateBlock(page, HOST);
      await acme.getByText('ACME 自动').waitFor();
      expect(await acme.getByTestId('acme-state').textContent()).toBe('有效');
      expect(await acme.textContent()).toMatch(/Pebble/);
      expect(await acme.textContent()).toMatch(/剩余 \d+ 天/);
      expect(await acme.getByText('HTTP-01').count()).toBe(1);
      // Times in the interface's one form, the full time on hover.
      expect(await acme.getByTestId('certificate-expiry').getAttribute('title')).toMatch(
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
      );
      expect(await acme.getByTestId('acme-next-renewal').getAttribute('title')).toMatch(/^\d{4}-/);
      expect(await acme.getByText('上次尝试').count()).toBe(1);
      expect(await acme.getByTestId('acme-error').count()).toBe(0);

      const manual = certificateBlock(page, MANUAL);
      await manual.getByText('手动').waitFor();
      expect(await manual.getByText('使用中').count()).toBe(1);
      expect(await manual.getByTestId('acme-state').count()).toBe(0);

      const before = ok(await suite.admin.get<CertificatesData>('/user/getCertificates')).certificates.find(
        (entry) => entry.directory === HOST,
      );
      await page.getByRole('button', { name: /立即续期/ }).click();
      await page.getByText('已开始向 CA 申请证书').waitFor();
      // The screen asks again while the order runs and shows the new certificate when it is done.
      await waitFor(
        async () => {
          const data = ok(await suite.admin.get<CertificatesData>('/user/getCertificates'));
          const entry = data.certificates.find((item) => item.directory === HOST);
          return entry?.acme?.state === 'valid' && entry.acme.lastSuccessAt !== before?.acme?.lastSuccessAt;
        },
        { timeoutMs: 60_000, what: 'the renewal from Pebble' },
      );
      await waitFor(async () => (await acme.getByTestId('acme-state').textContent()) === '有效', {
        timeoutMs: 20_000,
        what: 'the screen to show the renewed certificate',
      });
    } finally {
      await page.context().close();
    }
  });

  it('fits a 375 px phone: no sideways scrolling, every field readable', async () => {
    const page = await openCertificates(375, 740);
    try {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const acme = certificateBlock(page, HOST);
      for (const label of ['来源', '签发者', '到期时间', 'ACME 状态', '上次尝试', '下次续期']) {
        const box = await acme.getByText(label, { exact: true }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
      }
      const button = await page.getByRole('button', { name: /立即续期/ }).boundingBox();
      expect(button && button.x >= 0 && button.x + button.width <= 375).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('is not shown to a user who is not an administrator, and the API refuses them', async () => {
    const username = uniqueName('certs');
    await createSysAccount(suite.admin, { username, password: 'secret-123', role: 'user' });
    const token = await suite.login(username, 'secret-123');
    const refused = await suite.api(token).post('/user/renewCertificates', {});
    expect(refused.error).toBe(403);
    const page = await suite.openAs(token, '/user/domain');
    try {
      await page.getByRole('button', { name: /添加域名/ }).waitFor();
      expect(await page.getByText('TLS 证书').count()).toBe(0);
      expect(await page.getByRole('button', { name: /立即续期/ }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});
