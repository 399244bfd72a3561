/**
 * CSV as RFC 4180 describes it (section 2): fields separated by commas, records by CRLF (a bare LF
 * is accepted too), a field with a comma, quote or line break is enclosed in double quotes and a
 * quote inside is doubled. Spreadsheets in China also save with a UTF-8 byte order mark, which is
 * dropped on read and written on export so that Excel recognises UTF-8 and shows Chinese.
 */

export const UTF8_BOM = '\uFEFF';

/** Parses CSV text into records; empty lines are skipped. Throws on an unterminated quote. */
export function parseCsv(text: string): string[][] {
  const input = text.startsWith(UTF8_BOM) ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  for (let i = 0; i < input.length; i++) {
    const char = input[i];
    if (quoted) {
      if (char === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += char;
      }
      continue;
    }
    if (char === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (char === ',') {
      record.push(field);
      field = '';
      fieldStarted = false;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && input[i + 1] === '\n') i++;
      record.push(field);
      if (record.length > 1 || record[0] !== '') records.push(record);
      record = [];
      field = '';
      fieldStarted = false;
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (quoted) throw new Error('CSV 中有未闭合的引号');
  record.push(field);
  if (record.length > 1 || record[0] !== '') records.push(record);
  return records;
}

function escapeField(value: string): string {
  // A leading = + - @ makes spreadsheets evaluate the cell as a formula (CSV injection): quote it
  // behind an apostrophe, the usual defence.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Writes records as CSV with CRLF line ends and, for Excel, a UTF-8 byte order mark. */
export function toCsv(records: readonly (readonly (string | number)[])[]): string {
  return (
    UTF8_BOM +
    records.map((record) => record.map((v) => escapeField(String(v))).join(',')).join('\r\n') +
    '\r\n'
  );
}
