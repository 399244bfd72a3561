import { ENGLISH } from './en.js';

/**
 * The API's `msg` in the caller's language: Simplified Chinese (the default, and the text in the
 * code) or English, chosen by `Accept-Language` (the web client always sends its interface's).
 *
 * The Chinese message is the key of the English catalogue (en.ts). A message built at run time
 * (`域名 ${name} 已存在`) has its key with `{}` where the values go (`域名 {} 已存在`); each value
 * found there is itself looked up (a field's label, say) and left as it is when it has no entry
 * (a domain name). A message without an entry stays in Chinese: `scripts/check-i18n.mjs` lists
 * the messages of the code that have none.
 */
export type Language = 'zh-CN' | 'en';

/** The first language of an Accept-Language header (RFC 9110 section 12.5.4) that we speak. */
export function requestLanguage(header: string | string[] | undefined): Language {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranges = value
    .split(',')
    .slice(0, 20)
    .map((part, order) => {
      const [tag = '', ...parameters] = part.trim().toLowerCase().split(';');
      const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranges) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'zh-CN';
}

interface Pattern {
  regex: RegExp;
  english: string;
}

let patterns: Pattern[] | null = null;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compiled(): Pattern[] {
  patterns ??= Object.entries(ENGLISH)
    .filter(([chinese]) => chinese.includes('{}'))
    // The longest first: a key that is a prefix of another must not take its messages.
    .sort(([a], [b]) => b.length - a.length)
    .map(([chinese, english]) => ({
      regex: new RegExp(`^${chinese.split('{}').map(escapeRegex).join('([\\s\\S]*?)')}$`),
      english,
    }));
  return patterns;
}

/**
 * How deep values are translated in turn: a message's value can itself be a built text (a field's
 * label `密码（password）` in a validation message, a DNS record's `在域名 … 添加 …，记录值 …`).
 */
const MAX_DEPTH = 3;

/** English for a message (see the module's comment); the message itself when it has no entry. */
export function toEnglish(message: string): string {
  return translate(message, 0);
}

function translate(message: string, depth: number): string {
  const exact = ENGLISH[message];
  if (exact !== undefined) return exact;
  // Only a message with Chinese in it can have an entry (and messages are short: this runs on errors).
  if (depth > MAX_DEPTH || !/[\u3000-\u9fff\uff00-\uffef]/.test(message) || message.length > 2000)
    return message;
  for (const { regex, english } of compiled()) {
    const match = regex.exec(message);
    if (!match) continue;
    const values = match.slice(1).map((value) => translate(value, depth + 1));
    let index = 0;
    return english.replace(/\{\}/g, () => values[index++] ?? '');
  }
  return message;
}

export function localize(message: string, language: Language): string {
  return language === 'en' ? toEnglish(message) : message;
}
