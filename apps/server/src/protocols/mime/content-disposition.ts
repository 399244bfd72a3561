/**
 * `Content-Disposition` for a download: RFC 6266 (the header in HTTP, after RFC 2183 section 2 in
 * MIME), with the parameter value syntax of RFC 8187 section 3.2 (ext-value, formerly RFC 5987).
 */

/** Lone surrogates (a name decoded from broken UTF-16) have no UTF-8 form: they become U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * An ASCII `filename` for old clients and the exact UTF-8 name in `filename*` (RFC 6266 section
 * 4.3: a recipient that understands both takes `filename*`), so Chinese names survive.
 */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download';
  // RFC 8187 section 3.2.1: value-chars are attr-char or pct-encoded UTF-8 octets; encodeURIComponent
  // leaves ' ( ) * unencoded, which are not attr-char.
  const encoded = encodeURIComponent(wellFormed(filename)).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
