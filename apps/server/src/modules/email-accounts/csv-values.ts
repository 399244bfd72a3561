/**
 * How sizes and times read in the mailbox CSV files: sizes in MB (as operators think of quotas),
 * times as `YYYY-MM-DD HH:mm` in the operator's zone (a spreadsheet shows them as typed).
 */
const MB = 1024 * 1024;
const MAX_BYTES = 1024 ** 4;

export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(2);
}

/** MB as typed (`1024`, `0.5`, `1024MB`, `1 GB`); null when it is not a size. */
export function parseMegabytes(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(mb|m|gb|g)?$/i.exec(text.trim());
  if (!match) return null;
  const unit = (match[2] ?? 'mb').toLowerCase().startsWith('g') ? 1024 * MB : MB;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isFinite(bytes) && bytes <= MAX_BYTES ? bytes : null;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** `YYYY-MM-DD HH:mm` at `offsetMinutes` east of UTC. */
export function formatCsvTime(epochMs: number, offsetMinutes: number): string {
  const local = new Date(epochMs + offsetMinutes * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(
    local.getUTCHours(),
  )}:${pad(local.getUTCMinutes())}`;
}

/**
 * `YYYY-MM-DD`, `YYYY/MM/DD`, optionally with `HH:mm[:ss]`, read at `offsetMinutes` east of UTC (a
 * date alone means the end of that day); or an ISO 8601 time with its own zone. Undefined when it
 * is not a time.
 */
export function parseCsvTime(text: string, offsetMinutes: number): number | undefined {
  const value = text.trim();
  const local = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (local) {
    const [, y, mo, d, h, mi, s] = local;
    const dateOnly = h === undefined;
    const parts = [
      Number(y),
      Number(mo) - 1,
      Number(d),
      dateOnly ? 23 : Number(h),
      dateOnly ? 59 : Number(mi),
      dateOnly ? 59 : Number(s ?? 0),
    ] as const;
    const utc = Date.UTC(...parts);
    const check = new Date(utc);
    // Date.UTC rolls 2026-02-31 over to March; such a date was mistyped.
    if (
      check.getUTCMonth() !== parts[1] ||
      check.getUTCDate() !== parts[2] ||
      parts[3] > 23 ||
      parts[4] > 59
    ) {
      return undefined;
    }
    return utc - offsetMinutes * 60_000;
  }
  if (/^\d{4}-\d{2}-\d{2}T.+(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    const time = Date.parse(value);
    return Number.isFinite(time) ? time : undefined;
  }
  return undefined;
}
