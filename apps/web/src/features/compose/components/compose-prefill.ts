import type { DraftDetail, MailDetail } from '@youju/contract';
import DOMPurify from 'dompurify';
import { formatTime } from '../../../lib/dates';
import { t } from '../../../lib/i18n';

export type ComposeMode = 'new' | 'reply' | 'replyAll' | 'forward';

export interface ComposeValues {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** starting HTML of the editor (the quoted original, if any) */
  html: string;
  inReplyTo?: string;
}

/**
 * A practical check of an address as people type it: one @, a local part without spaces, a domain
 * with a dot. The server checks again (format "email").
 */
export function isEmailAddress(value: string): boolean {
  return /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]{2,}$/.test(value.trim());
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** "Re: " once, whatever the original already carried (Re/RE/回复). */
function prefixed(prefix: 'Re' | 'Fwd', subject: string): string {
  const pattern = prefix === 'Re' ? /^(re|回复)\s*[:：]\s*/i : /^(fwd?|转发)\s*[:：]\s*/i;
  return pattern.test(subject) ? subject : `${prefix}: ${subject}`;
}

function personText(person: { name: string; address: string }): string {
  return person.name ? `${person.name} <${person.address}>` : person.address;
}

function quotedText(original: MailDetail): string {
  const text = original.text ?? '';
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

function formatDate(iso: string): string {
  return formatTime(iso, { style: 'quote', fallback: iso });
}

/**
 * The signature block under the cursor's blank line: the conventional "-- " separator line
 * (RFC 3676 section 4.3), then the signature's lines as the user wrote them.
 */
export function signatureHtml(signature: string | undefined): string {
  const text = (signature ?? '').replace(/\r\n/g, '\n').trim();
  if (!text) return '';
  return `<p>-- <br>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
}

/**
 * The starting values of the compose drawer. Answers go to the original sender (reply) or to
 * everyone on it except ourselves (reply all), thread by the original's Message-ID, and quote its
 * text; a forward carries the original's header lines and text. `own` lists our addresses, so
 * that we neither answer ourselves nor lose the address the mail came in on. `signature` comes
 * from the caller's personal settings.
 */
export function prefill(
  mode: ComposeMode,
  original: MailDetail | undefined,
  own: string[],
  defaultFrom: string,
  signature?: string,
): ComposeValues {
  // The signature sits under the blank line the user writes on, above any quoted original.
  const start = `<p><br></p>${signatureHtml(signature)}`;
  const empty: ComposeValues = {
    from: defaultFrom,
    to: [],
    cc: [],
    bcc: [],
    subject: '',
    html: signatureHtml(signature) ? start : '',
  };
  if (mode === 'new' || !original) return empty;
  const mine = new Set(own.map((address) => address.toLowerCase()));
  const from = mine.has(original.address.toLowerCase()) ? original.address : defaultFrom;
  const notMine = (address: string) =>
    !mine.has(address.toLowerCase()) && address.toLowerCase() !== from.toLowerCase();
  const unique = (list: string[]) => [...new Set(list.map((address) => address.toLowerCase()))];

  if (mode === 'forward') {
    const header = [
      t('---------- 转发的邮件 ----------'),
      t('发件人：{from}', { from: escapeHtml(personText(original.from)) }),
      t('日期：{date}', { date: escapeHtml(formatDate(original.receivedAt)) }),
      t('主题：{subject}', { subject: escapeHtml(original.subject) }),
      t('收件人：{to}', { to: escapeHtml(original.to.map(personText).join(', ')) }),
    ].join('<br>');
    return {
      ...empty,
      from,
      subject: prefixed('Fwd', original.subject),
      html: `${start}<p>${header}</p><p>${quotedText(original)}</p>`,
    };
  }

  const to = unique([original.from.address]).filter((address) => address && notMine(address));
  const cc =
    mode === 'replyAll'
      ? unique([...original.to, ...original.cc].map((person) => person.address)).filter(
          (address) => notMine(address) && !to.includes(address),
        )
      : [];
  const quoteHead = t('{date}，{from} 写道：', {
    date: escapeHtml(formatDate(original.receivedAt)),
    from: escapeHtml(personText(original.from)),
  });
  return {
    from,
    to: to.length > 0 ? to : [original.from.address],
    cc,
    bcc: [],
    subject: prefixed('Re', original.subject),
    html: `${start}<p>${quoteHead}</p><blockquote style="margin:0 0 0 8px;padding-left:8px;border-left:2px solid #ccc">${quotedText(original)}</blockquote>`,
    ...(original.messageId ? { inReplyTo: original.messageId } : {}),
  };
}

/**
 * The compose values of a saved draft (getDraft). Its HTML was sanitised by the server and is
 * sanitised again here before the editor takes it as markup (a mail client may have APPENDed the
 * draft); a plain-text draft becomes paragraphs of escaped text.
 */
export function fromDraft(draft: DraftDetail): ComposeValues {
  const html =
    draft.html !== null
      ? DOMPurify.sanitize(draft.html)
      : draft.text
        ? `<p>${escapeHtml(draft.text).replace(/\r?\n/g, '<br>')}</p>`
        : '';
  return {
    from: draft.from,
    to: draft.to,
    cc: draft.cc,
    bcc: draft.bcc,
    subject: draft.subject,
    html,
    ...(draft.inReplyTo ? { inReplyTo: draft.inReplyTo } : {}),
  };
}
