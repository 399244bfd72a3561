/** The date-time of RFC 5322 section 3.3, as the Date field and DSN dates (RFC 3464 2.2.5) carry it. */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (value: number) => String(value).padStart(2, '0');

/** RFC 5322 section 3.3 date-time in UTC (zone +0000), to the second: `Tue, 04 Mar 2025 05:06:07 +0000`. */
export function rfc5322Date(time: number | Date): string {
  const d = new Date(time);
  return (
    `${WEEKDAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`
  );
}
