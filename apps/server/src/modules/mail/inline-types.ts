/**
 * Attachment types a browser shows without running anything: only these are served `inline`,
 * everything else is downloaded (with a sandboxing Content-Security-Policy either way).
 */
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
