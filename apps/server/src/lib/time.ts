export function toIso(epochMs: number): string;
export function toIso(epochMs: number | null): string | null;
export function toIso(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

/** Requests accept ISO 8601 strings or epoch milliseconds for every time field. */
export function parseTimeInput(value: string | number): number | null {
  const time = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
