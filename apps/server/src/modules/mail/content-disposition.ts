/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII `filename` for old clients and the
 * exact UTF-8 name in `filename*` (RFC 5987 / RFC 8187 ext-value), so Chinese names survive.
 */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download';
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Image types a browser shows without running anything; everything else is downloaded. */
const INLINE_SAFE = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
]);

export function isInlineSafe(contentType: string): boolean {
  return INLINE_SAFE.has(contentType.toLowerCase());
}
