import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createAddress, ok, uniqueName } from './support/api';
import { loginThroughForm } from './support/browser';
import { sendSmtp } from './support/smtp';
import { setUpBrowserSuite } from './support/suite';

interface Detail {
  id: number;
  subject: string;
  attachments: { id: string; filename: string; contentType: string; size: number; inline?: boolean }[];
}

/** A multipart/mixed message: a text part and the given files, base64 in 76-character lines. */
function withAttachments(
  to: string,
  subject: string,
  files: { name: string; type: string; bytes: Buffer }[],
) {
  const boundary = `b-${uniqueName('x')}`;
  const encoded = (text: string) => `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`;
  const parts = [
    `--${boundary}\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n两份文件请查收。\r\n`,
    ...files.map(
      (file) =>
        `--${boundary}\r\nContent-Type: ${file.type}; name="${encoded(file.name)}"\r\n` +
        `Content-Disposition: attachment; filename="${encoded(file.name)}"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${(file.bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')}\r\n`,
    ),
  ];
  return Buffer.from(
    [
      `Message-ID: <${uniqueName('m')}@e2e.test>`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'From: =?UTF-8?B?5byg5LiJ?= <zhangsan@e2e.test>',
      `To: ${to}`,
      `Subject: ${encoded(subject)}`,
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `${parts.join('')}--${boundary}--\r\n`,
    ].join('\r\n'),
  );
}

/** Forwarding from the inbox carries the original's attachments to the new recipient, byte for byte. */
describe('forwarding with attachments in the browser', () => {
  const suite = setUpBrowserSuite({ env: { QUEUE_POLL_MS: '300' } });
  let first: string;
  let second: string;

  beforeAll(async () => {
    const added = await addDomain(suite.admin, { name: `${uniqueName('fwd')}.test` });
    first = await createAddress(suite.admin, { domainId: added.id, localPart: 'wangwu' });
    second = await createAddress(suite.admin, { domainId: added.id, localPart: 'zhaoliu' });
  });

  const attachmentBytes = async (id: string) => {
    const response = await suite.admin.fetch(`/user/attachment/${encodeURIComponent(id)}`);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  it('forwards an SMTP message with its attachment to another local address', async () => {
    const subject = `合同附件 ${uniqueName('s')}`;
    const contract = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(300 * 1024)]);
    const notes = Buffer.from('不需要转发的备注\n');
    const reply = await sendSmtp(
      suite.server.smtpPort,
      'zhangsan@e2e.test',
      first,
      withAttachments(first, subject, [
        { name: '合同.pdf', type: 'application/pdf', bytes: contract },
        { name: '备注.txt', type: 'text/plain', bytes: notes },
      ]),
    );
    expect(reply).toMatch(/^250/);

    const { context, page } = await suite.newPage();
    try {
      await loginThroughForm(page, suite.baseUrl, suite.server.adminUser, suite.server.adminPassword);
      await page.getByLabel('邮箱地址').click();
      await page.locator('.ant-select-item-option').filter({ hasText: first }).click();
      const item = page.getByTestId('message-item').filter({ hasText: subject });
      await item.click();
      await page.getByTestId('reader-subject').filter({ hasText: subject }).waitFor();
      await page
        .getByTestId('message-reader')
        .getByRole('button', { name: /^(?:\S+ )?转\s*发$/ })
        .click();

      const drawer = page.locator('.ant-drawer-open');
      await expect.poll(() => drawer.getByLabel('主题').inputValue()).toBe(`Fwd: ${subject}`);
      // Both files of the original are downloaded and uploaded again, with the upload's state shown.
      const rows = drawer.getByTestId('compose-attachment');
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      for (const name of ['合同.pdf', '备注.txt']) {
        await rows
          .filter({ hasText: name })
          .locator('.ant-progress-indicator', { hasText: '已上传' })
          .waitFor({ timeout: 15_000 });
      }
      await expect.poll(() => drawer.getByText('正在添加原邮件的附件…').count()).toBe(0);
      // One can be taken off before sending.
      await drawer.getByRole('button', { name: '移除附件 备注.txt' }).click();
      await expect.poll(() => rows.count()).toBe(1);

      const to = drawer.getByLabel('收件人', { exact: true });
      await to.fill(second);
      await to.press('Enter');
      await drawer.getByRole('button', { name: /发\s*送/ }).click();
      await page.getByText('邮件已加入发送队列').waitFor();
    } finally {
      await context.close();
    }

    // The recipient's copy holds the same bytes.
    const api = suite.admin;
    let forwarded: { id: number; subject: string } | undefined;
    await expect
      .poll(
        async () => {
          const inbox = ok(
            await api.get<{ list: { id: number; subject: string }[] }>(
              `/user/getInbox?address=${encodeURIComponent(second)}`,
            ),
          );
          forwarded = inbox.list.find((mail) => mail.subject === `Fwd: ${subject}`);
          return Boolean(forwarded);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const copy = ok(await api.get<Detail>(`/user/getEmail?id=${forwarded?.id}`));
    const files = copy.attachments.filter((attachment) => !attachment.inline);
    expect(files.map((file) => [file.filename, file.contentType])).toEqual([['合同.pdf', 'application/pdf']]);
    const bytes = await attachmentBytes(files[0]?.id ?? '');
    expect(bytes.equals(contract)).toBe(true);
  });
});
