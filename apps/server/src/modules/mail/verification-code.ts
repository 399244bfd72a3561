/**
 * Finds the one-time code a message carries (sign-up, login, OTP, 2FA, password reset), for the
 * `code` field of a message. Precision matters more than recall: a wrong code pushed to a bot is
 * worse than none, so every doubt — two different candidates, a number with a label such as
 * "订单号" or "order", a price, a date — ends in `null`.
 *
 * How a code is found, in each of subject, text and HTML (reduced to text here, without a DOM):
 * 1. after a keyword ("验证码：123456", "Your verification code is 123456"): the first code-shaped
 *    token within 80 characters, in the same sentence;
 * 2. before one ("123456 is your Discord code", "123456是您的验证码");
 * 3. only when 1 and 2 found nothing: a line holding nothing but the code, after a keyword in the
 *    same part or under a subject with one (HTML mails that put the code in its own cell).
 *
 * Normalisation, so that the value returned is what the user types:
 * - full-width digits and letters become ASCII ("１２３４５６" → "123456");
 * - two equal groups of 3 or 4 digits split by one space or hyphen are joined ("123 456",
 *   "1234-5678" → "123456", "12345678"), as are two uppercase groups joined by a hyphen when they
 *   hold a digit ("ABC-123" → "ABC123"); a prefix of one or two capitals before a hyphen is the
 *   sender's tag, not part of the code ("G-123456" → "123456");
 * - letters keep their case.
 * A code is 4–8 characters: digits only, or uppercase letters and digits with at least one of each,
 * or lowercase letters and digits that alternate at least twice (so "win10" and "SAVE" are words,
 * "a7k9q2" is a code). Letters-only codes are not returned (they cannot be told from words).
 *
 * Not codes: promotional codes ("promo code SAVE20", and "code" alone in mail that talks of
 * discounts), numbers after a label (order, tracking, invoice, ticket, account, card "尾号",
 * phone …), prices and amounts, dates, times, years, decimals, phone numbers (longer than 8 digits,
 * or in groups), parts of URLs, e-mail addresses and identifiers ("ORD-123456").
 *
 * Work is bounded: only the first 64 KiB of text and 128 KiB of HTML are read, and every regular
 * expression is linear (no nested unbounded quantifiers; the few with alternations inside a
 * repetition only ever see a slice of a few dozen characters).
 */

const MAX_SUBJECT_CHARS = 1024;
const MAX_TEXT_CHARS = 64 * 1024;
/** HTML carries its styles and layout tables, so more of it is read to reach the same text. */
const MAX_HTML_CHARS = 128 * 1024;
/** How far after a keyword the code may stand ("验证码（10分钟内有效）：123456"). */
const AFTER_KEYWORD_CHARS = 80;
/** How far before a keyword the code may stand ("482913 is your GitHub verification code"). */
const BEFORE_KEYWORD_CHARS = 40;
/** How far below a keyword a line holding only the code may stand. */
const STANDALONE_AFTER_KEYWORD_CHARS = 500;

export interface MailForCode {
  subject: string;
  text: string | null;
  html: string | null;
}

export function findVerificationCode(mail: MailForCode): string | null {
  const subject = normaliseText(mail.subject.slice(0, MAX_SUBJECT_CHARS));
  const bodies: string[] = [];
  if (mail.text) bodies.push(normaliseText(mail.text.slice(0, MAX_TEXT_CHARS)));
  if (mail.html) bodies.push(normaliseText(htmlToText(mail.html.slice(0, MAX_HTML_CHARS))));

  const everything = [subject, ...bodies].join('\n');
  const promotion = PROMOTION_CONTEXT.test(everything);
  const context: PlainCodeWord = {
    before: !promotion,
    after: !promotion && VERIFICATION_CONTEXT.test(everything),
  };
  const keywords = [subject, ...bodies].map((text) => keywordsOf(text, context));
  // Every way to a code starts from a keyword (beside it, or on its own line below one in the part
  // or the subject): without one there is nothing to find, and the candidates need not be sought
  // (most mail; the search for them is most of the cost of a long body).
  if (keywords.every((found) => found.length === 0)) return null;
  const parts = [subject, ...bodies].map((text, i) => ({
    text,
    keywords: keywords[i] ?? [],
    candidates: findCandidates(text),
  }));

  const found = new Set<string>();
  for (const part of parts) for (const code of codesBesideKeywords(part, context)) found.add(code);
  if (found.size === 0) {
    const subjectHasKeyword = (parts[0]?.keywords ?? []).some((keyword) => !keyword.plain || context.after);
    for (const part of parts.slice(1))
      for (const code of codesOnTheirOwnLine(part, subjectHasKeyword, context)) found.add(code);
  }
  if (found.size !== 1) return null;
  return [...found][0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Keywords

/** Strong English keywords; a bare "code" is weak and counts only in verification context. */
const ENGLISH_KEYWORD =
  /\b(?:(?:verification|verify|validation|security|log-?in|log in|sign-?in|sign in|sign-on|authentication|authenticator|auth|one[- ]time|single[- ]use|confirmation|activation|2fa|two[- ]factor|mfa|otp|guard|temporary|reset)\s(?:pass)?code|one[- ]time\s(?:password|passcode|pin)|passcode|otp|code)\b/gi;
const CHINESE_KEYWORD =
  /验证码|驗證碼|校验码|校驗碼|动态码|動態碼|动态密码|動態密碼|动态口令|動態口令|激活码|激活碼|啟用碼|安全码|安全碼|安全代码|安全代碼|确认码|確認碼|登录码|登錄碼|登入碼|登录代码|登入代碼|认证码|認證碼|验证代码|驗證代碼|一次性密码|一次性密碼|一次性代码|一次性代碼/g;
/** Upper case only: "pin" is also an English verb. */
const PIN_KEYWORD = /\bPIN\b/g;

/** Mail about an account's security, where "your code is …" means a one-time code. */
const VERIFICATION_CONTEXT =
  /verif|sign[- ]?in|log[- ]?in|authenticat|two-factor|2fa|one-time|passcode|security|confirm|验证|驗證|登录|登入|登錄|认证|認證|身份|安全/i;
/** Mail about discounts, where "use code SAVE20" is a promotion. */
const PROMOTION_CONTEXT =
  /promo|coupon|discount|voucher|\d% off|checkout|redeem|gift card|sale\b|优惠|優惠|折扣|促销|促銷|满减|滿減|兑换|兌換|红包|紅包|券/i;
/** Words before "code" that make it something else than a one-time code. */
const NOT_ONE_TIME_BEFORE_CODE =
  /\b(?:promo|promotional|promotion|discount|coupon|voucher|gift|referral|invite|invitation|zip|postal|post|area|country|source|qr|bar|tracking|error|status|product|item|tax|swift|sort|routing|reference|order|booking|reservation|flight|dress|colour|color|offer|bonus|redemption|access|ticket|pickup|shipping|discount)\s?$/i;
/** "booking confirmation code" is a reservation reference. */
const NOT_ONE_TIME_BEFORE_CONFIRMATION =
  /\b(?:booking|reservation|order|flight|hotel|trip|ticket|purchase|shipment)\s?$/i;

/**
 * Where a bare "code" counts: before it ("482913 is your code") unless the mail promotes
 * something, after it ("your code is 482913") only in mail about an account's security.
 */
interface PlainCodeWord {
  before: boolean;
  after: boolean;
}

interface KeywordMatch {
  start: number;
  end: number;
  /** the bare word "code" */
  plain: boolean;
}

/**
 * Whether `text` may hold an English keyword: each one contains "code", "otp" or "time", in any
 * case (the keyword expression folds case the way toLowerCase does for these letters, and no other
 * character folds to them). Looking for three words costs a few microseconds for a 10 KiB body; the
 * keyword expression tries its alternatives at every word boundary, ten times that.
 */
function mayHoldEnglishKeyword(text: string): boolean {
  const lower = text.toLowerCase();
  return lower.includes('code') || lower.includes('otp') || lower.includes('time');
}

function findKeywords(text: string): KeywordMatch[] {
  const found: KeywordMatch[] = [];
  const english = mayHoldEnglishKeyword(text) ? text.matchAll(ENGLISH_KEYWORD) : [];
  for (const match of english) {
    const start = match.index;
    const word = match[0].toLowerCase();
    const before = text.slice(Math.max(0, start - 24), start);
    const plain = word === 'code';
    if (plain && NOT_ONE_TIME_BEFORE_CODE.test(before)) continue;
    if (word.startsWith('confirmation') && NOT_ONE_TIME_BEFORE_CONFIRMATION.test(before)) continue;
    found.push({ start, end: start + match[0].length, plain });
  }
  for (const regex of [CHINESE_KEYWORD, PIN_KEYWORD]) {
    for (const match of text.matchAll(regex)) {
      found.push({ start: match.index, end: match.index + match[0].length, plain: false });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------------------------------------
// Candidate tokens

/** A code-shaped token; `code` is null when its surroundings say it is something else. */
interface Candidate {
  code: string | null;
  start: number;
  end: number;
}

interface Part {
  text: string;
  keywords: KeywordMatch[];
  candidates: Candidate[];
}

/** The keywords of a part that count in this mail's context (a bare "code" only where it may). */
function keywordsOf(text: string, context: PlainCodeWord): KeywordMatch[] {
  return findKeywords(text).filter((keyword) => !keyword.plain || context.before || context.after);
}

interface Run {
  value: string;
  start: number;
  end: number;
}

const DIGITS = /^\d+$/;
const HAS_DIGIT = /\d/;

function isCodeShaped(value: string): boolean {
  if (value.length < 4 || value.length > 8) return false;
  if (DIGITS.test(value)) return true;
  if (/^[A-Z0-9]+$/.test(value)) return HAS_DIGIT.test(value) && /[A-Z]/.test(value);
  if (/^[a-z0-9]+$/.test(value)) {
    const digits = value.replace(/[a-z]/g, '').length;
    const alternations = value
      .split('')
      .filter((char, i) => i > 0 && /\d/.test(char) !== /\d/.test(value[i - 1] ?? '')).length;
    return digits >= 2 && alternations >= 2;
  }
  return false;
}

/** The separator between two runs when it is exactly one space or hyphen, else null. */
function linkBetween(text: string, left: Run | undefined, right: Run | undefined): string | null {
  if (!left || !right || right.start !== left.end + 1) return null;
  const separator = text[left.end];
  return separator === ' ' || separator === '-' ? separator : null;
}

/** "123 456", "1234-5678", "ABC-123": two equal groups printed apart for legibility. */
function joinsAsOneCode(left: string, right: string, separator: string): boolean {
  if (left.length !== right.length || left.length < 3 || left.length > 4) return false;
  if (DIGITS.test(left) && DIGITS.test(right)) return true;
  return separator === '-' && /^[A-Z0-9]+$/.test(left + right) && isCodeShaped(left + right);
}

/**
 * Code-shaped tokens in reading order. Runs of letters and digits are found with one linear
 * expression; grouping them ("123 456") is done here rather than in a regular expression, where
 * optional separators between repeated groups would backtrack.
 */
function findCandidates(text: string): Candidate[] {
  const runs: Run[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9]+/g)) {
    runs.push({ value: match[0], start: match.index, end: match.index + match[0].length });
  }
  const candidates: Candidate[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i] as Run;
    const previous = runs[i - 1];
    const next = runs[i + 1];
    const afterNext = runs[i + 2];
    const linkBefore = linkBetween(text, previous, run);
    const linkAfter = linkBetween(text, run, next);
    const linkBeyond = linkBetween(text, next, afterNext);

    if (
      next &&
      linkAfter === '-' &&
      linkBefore !== '-' &&
      linkBeyond !== '-' &&
      /^[A-Z]{1,2}$/.test(run.value)
    ) {
      if (/^\d{4,8}$/.test(next.value)) {
        candidates.push(checked(text, next.value, run.start, next.end));
        i++;
        continue;
      }
    }
    if (next && linkAfter && joinsAsOneCode(run.value, next.value, linkAfter)) {
      const partOfLonger =
        linkBefore === '-' ||
        linkBeyond === '-' ||
        (linkBefore && HAS_DIGIT.test(previous?.value ?? '')) ||
        (linkBeyond && HAS_DIGIT.test(afterNext?.value ?? ''));
      candidates.push(
        partOfLonger
          ? { code: null, start: run.start, end: next.end }
          : checked(text, run.value + next.value, run.start, next.end),
      );
      i++;
      continue;
    }
    if (!isCodeShaped(run.value)) continue;
    // A piece of an identifier ("ORD-123456", "2024-06-03") or of a number printed in groups
    // ("138 1234 5678", "2024 06 03"); a lone digit after a code ("123456 5分钟") is no group.
    const inIdentifier = linkBefore === '-' || linkAfter === '-';
    const inDigitGroups =
      DIGITS.test(run.value) &&
      ((linkBefore === ' ' && /^\d{2,}$/.test(previous?.value ?? '')) ||
        (linkAfter === ' ' && /^\d{2,}$/.test(next?.value ?? '')));
    candidates.push(
      inIdentifier || inDigitGroups
        ? { code: null, start: run.start, end: run.end }
        : checked(text, run.value, run.start, run.end),
    );
  }
  return candidates;
}

const ALPHANUMERIC = /[A-Za-z0-9]/;
/** Characters that make the token part of a price, URL, address, mask or hash before it. */
const BAD_BEFORE = '#$¥£€+@=&?*/\\~^|_%<';
const BAD_AFTER = '@%*/\\_#=&?+$>';
/** Units and counters after a number: "88元", "2024年", "6位", "10 minutes". */
const UNIT_AFTER =
  /^ ?(?:元|块|塊|円|角|分|年|月|日|号|號|时|時|秒|天|位|个|個|次|件|份|张|張|条|條|楼|樓|室|期|倍|折|万|萬|亿|億|人|km|kg|mb|gb|kb|px|usd|rmb|cny|hkd|yuan|dollars?|minutes?|mins?|hours?|hrs?|days?|seconds?|secs?|years?|items?|pcs)(?![A-Za-z])/i;
const CURRENCY_BEFORE = /(?:rmb|cny|usd|hkd|eur|gbp|us\$|\$|¥|€|£)\s?$/i;
/** Copyright lines and written dates around a year. */
const YEAR_CONTEXT_BEFORE =
  /(?:©|copyright|\(c\)|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.? \d{1,2},? ?|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.?,? ?)$/i;
const YEAR = /^(?:19|20)\d\d$/;
/**
 * A label right before a number says what the number is. Applied to a slice of 32 characters
 * ending at the token, anchored at its end.
 */
const LABEL_BEFORE =
  /(?:订单|訂單|单号|單號|运单|運單|快递|快遞|物流|发票|發票|工单|工單|尾号|尾號|卡号|卡號|账号|帳號|账户|帳戶|手机|手機|电话|電話|号码|號碼|编号|編號|邮编|郵編|金额|金額|价格|價格|合计|合計|总计|總計|实付|實付|余额|餘額|序列号|版本|航班|座位|房间|房間|会员|會員|积分|積分|致电|致電|拨打|撥打|热线|熱線|客服|\b(?:order|orders|tracking|shipment|parcel|invoice|ticket|receipt|account|acct|card|ending|phone|mobile|tel|fax|zip|postcode|postal|amount|total|price|balance|ref|reference|no|nr|number|id|member|customer|serial|version|flight|seat|room|booking|reservation|case|qty|sku|item|model|unsubscribe|ext|extension|points|call|hotline|contact|promo|coupon|voucher|discount|issue|pr|bug|build|port|line|step|page|chapter|section|rule))(?: ?(?:no\.?|number|num|nr\.?|is|at|of|on|in|us at|us on))?[\s:#.\-号號码碼为為是]{0,6}$/i;

/** A postal code after a Chinese address ("浦东新区 200120") or a US state ("CA 94043"). */
const ADDRESS_BEFORE = /(?:[省市区區县縣路街道镇鎮]|\b[A-Z]{2},?) ?$/;
/** A house number: "5521 W Main St". */
const STREET_AFTER =
  /^ (?:[NSEW]\.? )?[A-Z][a-z]+ (?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Way|Pkwy|Parkway|Ct|Court|Pl|Place|Sq|Square)\b/;

/** The candidate with its code, or null when what stands around it says it is no code. */
function checked(text: string, value: string, start: number, end: number): Candidate {
  const blocked = { code: null, start, end };
  if (!isCodeShaped(value)) return blocked;
  const before = text[start - 1] ?? '';
  const twoBefore = text[start - 2] ?? '';
  const after = text[end] ?? '';
  const twoAfter = text[end + 1] ?? '';
  if (before && BAD_BEFORE.includes(before)) return blocked;
  if ('.:,'.includes(before) && before && ALPHANUMERIC.test(twoBefore)) return blocked;
  if (after && BAD_AFTER.includes(after)) return blocked;
  // "1.5", "abc123.com", "10:30", "1,234" — but "123456，5分钟" (a full-width comma) is no number.
  if ((after === '.' || after === ':') && /[0-9a-z]/.test(twoAfter)) return blocked;
  if (after === ',' && /^\d{3}(?!\d)/.test(text.slice(end + 1, end + 5))) return blocked;
  if (UNIT_AFTER.test(text.slice(end, end + 10))) return blocked;
  const preceding = text.slice(Math.max(0, start - 32), start);
  if (CURRENCY_BEFORE.test(preceding.slice(-6))) return blocked;
  if (YEAR.test(value) && YEAR_CONTEXT_BEFORE.test(preceding)) return blocked;
  if (LABEL_BEFORE.test(preceding)) return blocked;
  if (
    DIGITS.test(value) &&
    (ADDRESS_BEFORE.test(preceding) || STREET_AFTER.test(text.slice(end, end + 32)))
  ) {
    return blocked;
  }
  return { code: value, start, end };
}

// ---------------------------------------------------------------------------------------------
// Where a code stands

/** A sentence ends between a keyword and its code: "Your code expires soon. Order 12345". */
const SENTENCE_END = /[。！？!?]|\.(?:\s|$)/;
/** What joins a code to a keyword after it: "482913 is your …", "123456是您的…", "123456 (…". */
const CODE_THEN_KEYWORD = /^\s?(?:is|are|was|will be|为|為|是|即|:|-|–|—|\(|（|\[|【)/i;

function firstCandidateFrom(candidates: Candidate[], position: number): number {
  let low = 0;
  let high = candidates.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((candidates[middle] as Candidate).start < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

function codesBesideKeywords(part: Part, context: PlainCodeWord): string[] {
  const codes: string[] = [];
  const { text, candidates } = part;
  for (const keyword of part.keywords) {
    const index = firstCandidateFrom(candidates, keyword.end);
    const after = candidates[index];
    if (after && after.start - keyword.end <= AFTER_KEYWORD_CHARS && (!keyword.plain || context.after)) {
      const between = text.slice(keyword.end, after.start);
      if (after.code && !SENTENCE_END.test(between)) codes.push(after.code);
    }
    const before = candidates[firstCandidateFrom(candidates, keyword.start) - 1];
    const near = before && before.end <= keyword.start && keyword.start - before.end <= BEFORE_KEYWORD_CHARS;
    if (before && near && (!keyword.plain || context.before)) {
      const between = text.slice(before.end, keyword.start);
      if (before.code && CODE_THEN_KEYWORD.test(between) && !SENTENCE_END.test(between))
        codes.push(before.code);
    }
  }
  return codes;
}

function onItsOwnLine(text: string, candidate: Candidate): boolean {
  let before = candidate.start - 1;
  while (before >= 0 && text[before] === ' ') before--;
  let after = candidate.end;
  while (after < text.length && text[after] === ' ') after++;
  return (before < 0 || text[before] === '\n') && (after >= text.length || text[after] === '\n');
}

function codesOnTheirOwnLine(part: Part, subjectHasKeyword: boolean, context: PlainCodeWord): string[] {
  const codes: string[] = [];
  let keywordIndex = 0;
  let lastKeywordEnd = -1;
  const keywords = part.keywords.filter((keyword) => !keyword.plain || context.after);
  for (const candidate of part.candidates) {
    while (
      keywordIndex < keywords.length &&
      (keywords[keywordIndex] as KeywordMatch).end <= candidate.start
    ) {
      lastKeywordEnd = (keywords[keywordIndex] as KeywordMatch).end;
      keywordIndex++;
    }
    const keywordAbove =
      lastKeywordEnd >= 0 && candidate.start - lastKeywordEnd <= STANDALONE_AFTER_KEYWORD_CHARS;
    if (!candidate.code || YEAR.test(candidate.code) || !(keywordAbove || subjectHasKeyword)) continue;
    if (onItsOwnLine(part.text, candidate)) codes.push(candidate.code);
  }
  return codes;
}

// ---------------------------------------------------------------------------------------------
// Text preparation

/** Full-width forms (U+FF01–U+FF5E) to ASCII, odd spaces to one space, invisible characters out. */
function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\uFF01-\uFF5E]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0))
    .replace(/\uFFE5/g, '¥')
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]|\u034F/g, '')
    .replace(/[\t\u00A0\u2000-\u200A\u202F\u205F\u3000 ]+/g, ' ');
}

/** Elements whose content is never text a reader sees. */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'template', 'svg', 'xml', 'noscript', 'object']);
/** Elements that start a new line when rendered; table cells too, so a code in a cell is a line. */
const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'center',
  'dd',
  'div',
  'dl',
  'dt',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'ul',
]);
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  zwnj: '',
  zwj: '',
  shy: '',
  copy: '©',
  reg: '®',
  yen: '¥',
  euro: '€',
  pound: '£',
  cent: '¢',
  middot: '·',
  bull: '•',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
};

function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g,
    (entity, decimal?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
      const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '';
    },
  );
}

/**
 * The text a reader sees, with block boundaries as line breaks. One pass with indexOf: each step
 * moves forward, and a construct that never closes (a comment, a <style>) ends the text, so the
 * work stays linear on any input.
 */
function htmlToText(html: string): string {
  const lower = html.toLowerCase();
  const chunks: string[] = [];
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open < 0) {
      chunks.push(html.slice(position));
      break;
    }
    chunks.push(html.slice(position, open));
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      if (close < 0) break;
      position = close + 3;
      continue;
    }
    const first = html[open + 1] ?? '';
    if (!/[A-Za-z/!?]/.test(first)) {
      chunks.push('<');
      position = open + 1;
      continue;
    }
    const close = html.indexOf('>', open + 1);
    if (close < 0) break;
    position = close + 1;
    const name = /^<\/?([A-Za-z][A-Za-z0-9]{0,15})/.exec(html.slice(open, open + 18))?.[1]?.toLowerCase();
    if (!name) continue;
    if (first !== '/' && HIDDEN_ELEMENTS.has(name) && html[close - 1] !== '/') {
      const end = lower.indexOf(`</${name}`, position);
      if (end < 0) break;
      const endClose = html.indexOf('>', end);
      if (endClose < 0) break;
      position = endClose + 1;
      chunks.push('\n');
      continue;
    }
    if (BLOCK_ELEMENTS.has(name)) chunks.push('\n');
  }
  return decodeEntities(chunks.join(''));
}
