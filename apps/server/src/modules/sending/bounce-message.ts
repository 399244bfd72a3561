import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type Libmime from 'libmime';
import { formatDeliveryStatus } from '../../protocols/dsn/delivery-status.js';
import { composeReport } from '../../protocols/dsn/multipart-report.js';
import { rfc5322Date } from '../../protocols/mime/date-time.js';

/** Who a bounce comes from (RFC 5321 section 4.5.5 leaves the name free; MAILER-DAEMON is usage). */
export const BOUNCE_LOCAL_PART = 'MAILER-DAEMON';
// i18n-exempt: a bounce is mail, written in Chinese like the rest of its content (issue 17 item 7)
const BOUNCE_DISPLAY_NAME = '邮件系统退信';

let libmimeModule: typeof Libmime | undefined;
/** libmime, loaded with the first bounce: the store worker loads this module and rarely bounces. */
function libmime(): typeof Libmime {
  libmimeModule ??= createRequire(import.meta.url)('libmime') as typeof Libmime;
  return libmimeModule;
}

/** One recipient whose delivery failed, as the bounce reports it. */
export interface BouncedRecipient {
  rcpt: string;
  /** RFC 3463 status, class 5 (see `failureStatus` in protocols/dsn) */
  status: string;
  /** the last reply of a server, as sent; null when none answered */
  reply: string | null;
  /** the host that gave it */
  remoteMta: string | null;
  /** the reason the sent list shows (Chinese, may repeat the reply) */
  reason: string;
  attempts: number;
  lastAttemptAt: number;
}

export interface BounceInput {
  /** our host name (MAIL_HOSTNAME): Reporting-MTA and the bounce's own domain */
  reportingMta: string;
  /** the address that sent the original and gets the bounce */
  sender: string;
  original: {
    /** Message-ID with angle brackets */
    messageId: string;
    subject: string;
    /** when it entered the queue (Arrival-Date) */
    queuedAt: number;
    /** its header block as sent, without the blank line that ends it */
    headers: Buffer;
  };
  recipients: BouncedRecipient[];
  date: Date;
}

const two = (value: number) => String(value).padStart(2, '0');

/** The server's local time with its offset, for people: 2025-03-01 14:05:09（UTC+08:00）. */
function localTime(time: number): string {
  const d = new Date(time);
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const zone = `UTC${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return (
    `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ` +
    `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}（${zone}）`
  );
}

/** What a status means and what the sender can check, by RFC 3463 subject and detail. */
function explain(status: string): { meaning: string; check: string } {
  const [, subject = '0', detail = '0'] = status.split('.');
  const code = `${subject}.${detail}`;
  if (['1.1', '1.0', '1.3', '1.6'].includes(code)) {
    return {
      meaning: '收件人的邮箱地址不存在，或对方服务器不认识这个地址。',
      check: '收件人地址是否拼写正确（@ 前后的每个字符）；必要时通过其他方式向对方确认地址。',
    };
  }
  if (['1.2', '1.10', '4.4'].includes(code)) {
    return {
      meaning: '收件人的域名不存在，或该域名声明不接收邮件。',
      check: '@ 后面的域名是否拼写正确；对方的域名可能没有设置邮件服务。',
    };
  }
  if (code === '2.2') {
    return {
      meaning: '收件人的邮箱已满，暂时无法接收新邮件。',
      check: '请对方清理邮箱后再重新发送，或通过其他方式联系对方。',
    };
  }
  if (code === '2.1') {
    return {
      meaning: '收件人的邮箱已停用，不再接收邮件。',
      check: '向对方确认新的联系地址。',
    };
  }
  if (['3.4', '2.3'].includes(code)) {
    return {
      meaning: '邮件太大，超出了对方服务器允许的大小。',
      check: '减小附件（压缩、拆分成几封，或改用下载链接）后重新发送。',
    };
  }
  if (code === '4.7') {
    return {
      meaning: '在较长时间内多次重试都未能送达：对方服务器一直无法连接，或只给出临时错误。',
      check: '收件人的域名是否正确；对方服务器可能故障，可稍后重新发送，或通过其他方式联系对方。',
    };
  }
  if (subject === '7') {
    return {
      meaning: '对方服务器出于安全或反垃圾邮件策略拒收了这封邮件。',
      check:
        '发件域名的 SPF、DKIM、DMARC 记录是否正确（可在域名管理中检查 DNS）；邮件内容、链接或附件是否容易被当作垃圾邮件；必要时请对方的邮件管理员放行。',
    };
  }
  return {
    meaning: '对方服务器拒收了这封邮件。',
    check: '对方答复中的说明；如无法自行解决，可把本通知转给对方的邮件管理员。',
  };
}

function humanReadable(input: BounceInput): string {
  const subject = input.original.subject.trim() || '（无主题）';
  const lines = [
    `这是 ${input.reportingMta} 的邮件系统自动发出的退信通知，请勿直接回复。`,
    '',
    `您于 ${localTime(input.original.queuedAt)} 发出的邮件未能送达以下 ${input.recipients.length} 位收件人，系统已停止投递：`,
    '',
    `邮件主题：${subject}`,
  ];
  for (const recipient of input.recipients) {
    const { meaning, check } = explain(recipient.status);
    lines.push('', `收件人：${recipient.rcpt}`);
    if (recipient.remoteMta) lines.push(`对方服务器：${recipient.remoteMta}`);
    if (recipient.reply) lines.push(`对方答复：${recipient.reply}`);
    if (recipient.reason && recipient.reason !== recipient.reply) lines.push(`失败原因：${recipient.reason}`);
    lines.push(
      `尝试次数：${recipient.attempts}（最后一次在 ${localTime(recipient.lastAttemptAt)}）`,
      `说明：${meaning}`,
      `请检查：${check}`,
    );
  }
  lines.push(
    '',
    '本通知只涉及以上收件人；其他收件人的投递情况可在“已发送”中查看。',
    '原邮件的信头附在本通知之后，供排查问题时参考；如需帮助，请把本通知转给邮件管理员。',
  );
  return lines.join('\r\n');
}

/**
 * A delivery status notification for the failed recipients of one message: RFC 6522
 * multipart/report with report-type delivery-status, whose parts are the explanation for people
 * (Simplified Chinese), the message/delivery-status fields of RFC 3464 and the original's header
 * block as text/rfc822-headers. It is marked Auto-Submitted: auto-replied (RFC 3834 section 5) and
 * is delivered with an empty envelope sender (RFC 5321 section 4.5.5) so nothing ever bounces it.
 */
export function composeBounce(input: BounceInput): { messageId: string; bytes: Buffer } {
  const messageId = `<${randomUUID()}@${input.reportingMta}>`;
  const boundary = `=_youju_report_${randomUUID().replace(/-/g, '')}`;
  const subject = input.original.subject.trim().slice(0, 120) || '（无主题）';
  const originalId = /^<[^<>\s]+>$/.test(input.original.messageId) ? input.original.messageId : null;
  const headerFields = [
    `From: ${libmime().encodeWord(BOUNCE_DISPLAY_NAME, 'B')} <${BOUNCE_LOCAL_PART}@${input.reportingMta}>`,
    `To: <${input.sender}>`,
    libmime().foldLines(`Subject: ${libmime().encodeWords(`退信：邮件未能送达（${subject}）`, 'B', 52)}`, 76),
    `Date: ${rfc5322Date(input.date)}`,
    `Message-ID: ${messageId}`,
    ...(originalId ? [`In-Reply-To: ${originalId}`, `References: ${originalId}`] : []),
    'Auto-Submitted: auto-replied',
  ];
  const deliveryStatus = formatDeliveryStatus({
    reportingMta: input.reportingMta,
    arrivalDate: input.original.queuedAt,
    recipients: input.recipients.map((recipient) => ({
      finalRecipient: recipient.rcpt,
      action: 'failed',
      status: recipient.status,
      remoteMta: recipient.remoteMta,
      diagnosticCode: recipient.reply,
      lastAttemptDate: recipient.lastAttemptAt,
    })),
  });
  const bytes = composeReport({
    headerFields,
    boundary,
    notification: humanReadable(input),
    deliveryStatus,
    originalHeaders: input.original.headers,
  });
  return { messageId, bytes };
}
