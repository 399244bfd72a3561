/**
 * The SASL PLAIN message (RFC 4616 section 2), as POP3 AUTH (RFC 5034) and IMAP AUTHENTICATE
 * (RFC 3501 section 6.2.2) carry it in base64: `[authzid] NUL authcid NUL passwd`, UTF-8.
 */

export interface PlainCredentials {
  /** the identity to act as; empty when the client sent none */
  authorizationId: string;
  authenticationId: string;
  password: string;
}

/** RFC 4648 base64 with its padding, as SASL requires (RFC 5034 section 4, RFC 4616). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The credentials, or null when the text is not a PLAIN message. */
export function decodeSaslPlain(base64: string): PlainCredentials | null {
  const text = base64.trim();
  if (!BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  const fields: Buffer[] = [];
  let start = 0;
  for (let at = 0; at <= bytes.length; at++) {
    if (at === bytes.length || bytes[at] === 0) {
      fields.push(bytes.subarray(start, at));
      start = at + 1;
    }
  }
  if (fields.length !== 3) return null;
  const [authorizationId, authenticationId, password] = fields.map((field) => field.toString('utf8')) as [
    string,
    string,
    string,
  ];
  // RFC 4616 section 2: authcid and passwd are not empty, and all is UTF-8 (decoding is then exact)
  const exact = [authorizationId, authenticationId, password].every((text, index) =>
    Buffer.from(text, 'utf8').equals(fields[index]!),
  );
  if (!exact || authenticationId === '' || password === '') return null;
  return { authorizationId, authenticationId, password };
}

export function encodeSaslPlain(credentials: PlainCredentials): string {
  const { authorizationId, authenticationId, password } = credentials;
  return Buffer.from(`${authorizationId}\0${authenticationId}\0${password}`, 'utf8').toString('base64');
}
