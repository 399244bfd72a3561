const MB = 1024 * 1024;

/** Bytes as people read them: 0 B, 512 KB, 12.3 MB, 1 GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${trim(bytes / 1024)} KB`;
  if (bytes < 1024 * MB) return `${trim(bytes / MB)} MB`;
  return `${trim(bytes / (1024 * MB))} GB`;
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
}

export function megabytesToBytes(mb: number): number {
  return Math.round(mb * MB);
}

export function bytesToMegabytes(bytes: number): number {
  return Math.round((bytes / MB) * 100) / 100;
}
