import { domainToASCII, domainToUnicode } from 'node:url';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Normalises a domain as people type it: trims, drops a trailing dot, converts an internationalised
 * name to punycode (IDNA, RFC 5891) and lower case. Returns null for a name that cannot be a mail
 * domain (RFC 1035 section 2.3.4 limits: 63 per label, 253 in all).
 */
export function normalizeDomainName(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed || /[\s@/:]/.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((label) => LABEL.test(label))) return null;
  const tld = labels.at(-1) ?? '';
  if (/^\d+$/.test(tld)) return null;
  return ascii;
}

export function displayDomainName(ascii: string): string {
  return domainToUnicode(ascii) || ascii;
}
