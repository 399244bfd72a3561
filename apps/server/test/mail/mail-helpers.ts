import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/eml/', import.meta.url));

export interface FixtureExpectation {
  file: string;
  subject: string;
  from?: { name: string; address: string };
  text?: string;
  textContains?: string[];
  textEmpty?: boolean;
  textContainsAny?: boolean;
  htmlContains?: string[];
  htmlNotContains?: string[];
  cc?: { name: string; address: string }[];
  toContains?: { name: string; address: string }[];
  attachments: { filename: string; contentType: string; size: number; sha256: string }[] | null;
  inlineCid?: string;
}

export function fixtureList(): FixtureExpectation[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as FixtureExpectation[];
}

/** A fixture with its recipient placeholder filled in. */
export function fixtureBytes(file: string, recipient: string): Buffer {
  const raw = readFileSync(join(FIXTURES, file));
  const marker = Buffer.from('<RCPT>');
  const at = raw.indexOf(marker);
  const filled =
    at < 0
      ? raw
      : Buffer.concat([raw.subarray(0, at), Buffer.from(`<${recipient}>`), raw.subarray(at + marker.length)]);
  // DATA always ends with CRLF before the final dot (RFC 5321 section 4.1.1.4), so the stored
  // message does too.
  return filled.subarray(-2).toString() === '\r\n' || filled.length === 0
    ? filled
    : Buffer.concat([filled, Buffer.from('\r\n')]);
}
