/**
 * IMAP dates (RFC 3501 section 9, RFC 9051 section 9): `date-time` as in INTERNALDATE and APPEND,
 * `"17-Jul-1996 02:44:25 -0700"` with the day padded by a space, and the `date` of SEARCH
 * (`1-Feb-1994`), which names a day without a time zone.
 */
import { ImapSyntaxError } from './imap-value.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function two(number: number): string {
  return String(number).padStart(2, '0');
}

/** `date-time` of `moment` as seen at `offsetMinutes` east of UTC (0: `+0000`). */
export function formatInternalDate(moment: Date, offsetMinutes = 0): string {
  const local = new Date(moment.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const zone = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}${two(Math.abs(offsetMinutes) % 60)}`;
  const day = String(local.getUTCDate()).padStart(2, ' ');
  const time = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
  return `${day}-${MONTHS[local.getUTCMonth()]}-${local.getUTCFullYear()} ${time} ${zone}`;
}

/** `date-time` (APPEND's optional argument) to the moment it names. */
export function parseInternalDate(text: string): Date {
  const match =
    /^([ 0-9]?[0-9])-([A-Za-z]{3})-([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([+-])([0-9]{2})([0-9]{2})$/.exec(
      text,
    );
  if (match === null) throw new ImapSyntaxError('bad date-time');
  const [, day, month, year, hours, minutes, seconds, sign, zoneHours, zoneMinutes] = match;
  const utc =
    dayOf(day!.trim(), month!, year!) + Date.UTC(1970, 0, 1, Number(hours), Number(minutes), Number(seconds));
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 60 || Number(zoneMinutes) > 59) {
    throw new ImapSyntaxError('bad date-time');
  }
  const offset = (Number(zoneHours) * 60 + Number(zoneMinutes)) * (sign === '-' ? -1 : 1);
  return new Date(utc - offset * 60_000);
}

/** SEARCH `date` (`1-Feb-1994`) as `YYYY-MM-DD`; the server decides which time zone it means. */
export function parseSearchDate(text: string): string {
  const match = /^([0-9]{1,2})-([A-Za-z]{3})-([0-9]{4})$/.exec(text);
  if (match === null) throw new ImapSyntaxError('bad date');
  return new Date(dayOf(match[1]!, match[2]!, match[3]!)).toISOString().slice(0, 10);
}

/** Midnight UTC of the day, as milliseconds; refuses 31-Feb and kin. */
function dayOf(day: string, monthName: string, year: string): number {
  const month = MONTHS.findIndex((name) => name.toLowerCase() === monthName.toLowerCase());
  const time = Date.UTC(Number(year), month, Number(day));
  if (month < 0 || new Date(time).getUTCDate() !== Number(day)) throw new ImapSyntaxError('bad date');
  return time;
}
