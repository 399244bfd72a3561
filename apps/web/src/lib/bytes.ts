import { t } from './i18n';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;
const STORAGE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * How sizes are written. Screens have shown sizes in slightly different forms since they were made,
 * and each keeps its own; the forms live together here so that a new screen picks one of them.
 * - `storage`: the dashboard's stored total, 0 B to TB with up to two decimals (512 KB, 1.5 GB, 12.3 MB)
 * - `account`: mailbox usage and quota, up to one decimal without a trailing .0 (0 B, 1.5 KB, 1 GB)
 * - `upload`: attachments being composed and the size limit (980 B, 12 KB, 1.5 MB)
 * - `received`: attachments and raw source of a received message (980 字节, 12.0 KB, 1.5 MB)
 * - `sent`: a sent message and its attachments, never below 1 KB (1 KB, 1.5 MB)
 * - `wholeMegabytes`: a quota in whole megabytes (1024 MB)
 */
export type ByteStyle = 'storage' | 'account' | 'upload' | 'received' | 'sent' | 'wholeMegabytes';

/** One decimal, or none from 100 on; a trailing .0 is dropped. */
function upToOneDecimal(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
}

function storage(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < STORAGE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits))} ${STORAGE_UNITS[unit]}`;
}

function account(bytes: number): string {
  if (bytes < KB) return `${bytes} B`;
  if (bytes < MB) return `${upToOneDecimal(bytes / KB)} KB`;
  if (bytes < GB) return `${upToOneDecimal(bytes / MB)} MB`;
  return `${upToOneDecimal(bytes / GB)} GB`;
}

function upload(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= KB) return `${Math.round(bytes / KB)} KB`;
  return `${bytes} B`;
}

function received(bytes: number): string {
  if (bytes < KB) return t('{count} 字节', { count: bytes });
  if (bytes < MB) return `${(bytes / KB).toFixed(1)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}

function sent(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / KB))} KB`;
}

const styles: Record<ByteStyle, (bytes: number) => string> = {
  storage,
  account,
  upload,
  received,
  sent,
  wholeMegabytes: (bytes) => `${Math.round(bytes / MB)} MB`,
};

/** A size in bytes as people read it, in the given style (see `ByteStyle`). */
export function formatBytes(bytes: number, style: ByteStyle = 'storage'): string {
  return styles[style](bytes);
}

/** Megabytes typed into a form, as bytes. */
export function megabytesToBytes(megabytes: number): number {
  return Math.round(megabytes * MB);
}

/** Bytes as megabytes for a form field, to two decimals. */
export function bytesToMegabytes(bytes: number): number {
  return Math.round((bytes / MB) * 100) / 100;
}
