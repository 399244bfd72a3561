const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  middot: '·',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  yen: '¥',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * The text/plain alternative of an HTML body (RFC 2046 section 5.1.4: the same content in the
 * plainest form, for readers that cannot show HTML). Block elements become line breaks, list items
 * get a bullet, links keep their address, scripts and styles vanish.
 */
export function htmlToPlainText(html: string): string {
  let text = html
    .replace(/<(script|style|head|title)[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\r\n?/g, '\n')
    // Inside HTML, source line breaks are just spaces.
    .replace(/\s*\n\s*/g, ' ')
    .replace(
      /<a\b[^>]*\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_whole, _quote, href: string, inner: string) => {
        const label = inner.replace(/<[^>]+>/g, '').trim();
        const target = decodeEntities(href);
        if (!label || label === target || /^(javascript|data):/i.test(target)) return label || '';
        return `${label} (${target})`;
      },
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|blockquote|pre|tr|table|ul|ol|section|article|header|footer)\s*>/gi, '\n')
    .replace(/<(p|div|h[1-6]|blockquote|pre|tr|table|ul|ol|section|article|header|footer|hr)\b[^>]*>/gi, '\n')
    .replace(/<\/t[dh]\s*>/gi, '\t')
    .replace(/<[^>]+>/g, '');
  text = decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, (run) => (run.includes('\t') ? '\t' : ' ')).trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  return text.trim();
}
