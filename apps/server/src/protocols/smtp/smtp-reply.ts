/**
 * SMTP replies: the reply line of RFC 5321 section 4.2 (three-digit code, text; continuation lines
 * with "-", section 4.2.1), the enhanced status code of RFC 3463 leading the text as RFC 2034
 * section 3 has it, and the replies our server sends.
 */

/**
 * An SMTP failure reply: the basic reply code (RFC 5321 section 4.2), the enhanced status code
 * (RFC 3463), and whether the sender should retry (4xx) or give up (5xx). smtp-server sends
 * `responseCode` and the message; the enhanced code leads the text.
 *
 * smtp-server does not advertise ENHANCEDSTATUSCODES (RFC 2034) by default, and when it does it
 * derives the enhanced code from the basic code alone (550 always "5.1.1"), which would label a
 * filter refusal as an unknown mailbox. So the extension stays unadvertised and our replies carry
 * their exact enhanced code in the text, as many MTAs do.
 */
export class SmtpReply extends Error {
  readonly responseCode: number;
  constructor(
    code: number,
    readonly enhancedCode: string,
    text: string,
  ) {
    super(`${enhancedCode} ${text}`);
    this.responseCode = code;
  }

  get transient(): boolean {
    return this.responseCode >= 400 && this.responseCode < 500;
  }
}

export const Replies = {
  /**
   * An operator's blacklist entry: RFC 5321 section 3.1 allows 554 instead of the greeting; RFC 3463
   * 5.7.1 delivery not authorized. The operator decided; the sender should know at once.
   */
  blocked: () => new SmtpReply(554, '5.7.1', 'Your address is not allowed to send mail here'),
  /**
   * An automatic ban (address probing, password guessing from that address): 421 closes the
   * session and the sender retries later (RFC 5321 section 4.2.2 / 3.8), so mail of legitimate users
   * of a shared address is delayed, never bounced.
   */
  temporarilyBlocked: () =>
    new SmtpReply(421, '4.7.0', 'Too much suspicious traffic from your address, try again later'),
  /**
   * The server is shutting down (RFC 5321 section 3.8: 421, then close; the client retries later,
   * possibly at another MX). RFC 3463 4.3.2: system not accepting network messages.
   */
  shuttingDown: () => new SmtpReply(421, '4.3.2', 'Service shutting down, try again later'),
  /** More sessions from one address than its share: RFC 3463 4.7.0, retried later */
  tooManyConnections: () =>
    new SmtpReply(421, '4.7.0', 'Too many connections from your address, try again later'),
  /** RFC 3463 section 3.2: 5.1.2 bad destination system address (a domain not proven ours) */
  unverifiedDomain: (address: string) =>
    new SmtpReply(
      550,
      '5.1.2',
      `<${address.replace(/[^\x21-\x7e]/g, '?')}>: Recipient domain is not accepted here`,
    ),
  /** RFC 3463 section 3.2: 5.1.1 bad destination mailbox address */
  unknownRecipient: (address: string) =>
    new SmtpReply(
      550,
      '5.1.1',
      `<${address.replace(/[^\x21-\x7e]/g, '?')}>: Recipient address rejected: no such mailbox`,
    ),
  /** RFC 5321 section 4.5.3.1.10 + RFC 3463 4.5.3: too many recipients, the rest may be sent again */
  tooManyRecipients: () => new SmtpReply(452, '4.5.3', 'Too many recipients'),
  /** RFC 3463 4.2.2: mailbox full (transient, the owner may free space) */
  mailboxFull: () => new SmtpReply(452, '4.2.2', 'Mailbox full, try again later'),
  /** RFC 1870 section 6 + RFC 3463 5.3.4: message too big for system */
  tooBig: (limit: number) =>
    new SmtpReply(552, '5.3.4', `Message size exceeds fixed maximum message size (${limit} bytes)`),
  /** RFC 5321 section 2.3.8 (lines end in CRLF only) and section 4.1.1.4; RFC 3463 5.6.0 */
  bareLineBreak: () =>
    new SmtpReply(
      554,
      '5.6.0',
      'Message contains a bare CR, or a lone "." line next to a bare LF (SMTP smuggling; RFC 5321 2.3.8)',
    ),
  /** RFC 5321 section 4.5.3.1.6 (text line limit); refused beyond our generous bound */
  lineTooLong: (limit: number) =>
    new SmtpReply(554, '5.6.0', `Message has a line longer than ${limit} bytes`),
  /** RFC 3463 5.3.4 for the header block and MIME structure limits */
  structureTooLarge: (what: string) => new SmtpReply(552, '5.3.4', `Message ${what} exceeds the limit`),
  /** RFC 3463 5.7.1: delivery not authorized, message refused (content filter) */
  rejectedByFilter: () => new SmtpReply(550, '5.7.1', 'Message refused by content policy'),
  /** RFC 7489 section 6.6.2 (DMARC p=reject) with RFC 7372 section 3.1's 5.7.1 */
  rejectedByDmarc: () =>
    new SmtpReply(550, '5.7.1', 'Message rejected: DMARC policy of the sender domain (RFC 7489)'),
  /** RFC 3463 4.3.1: mail system full */
  storageFull: () => new SmtpReply(452, '4.3.1', 'Insufficient system storage, try again later'),
  // Submission (RFC 6409) and SMTP AUTH (RFC 4954 section 6).
  /** RFC 4954 section 6: 530 5.7.0 authentication required (MAIL before AUTH on the submission port) */
  authRequired: () => new SmtpReply(530, '5.7.0', 'Authentication required'),
  /** RFC 3207 section 4 / RFC 4954 section 4: no AUTH before TLS from a remote client (538 as Exchange and Postfix send it) */
  startTlsFirst: () => new SmtpReply(538, '5.7.0', 'Must issue a STARTTLS command first'),
  /** RFC 4954 section 6: 535 5.7.8 authentication credentials invalid */
  badCredentials: () => new SmtpReply(535, '5.7.8', 'Authentication credentials invalid'),
  /** RFC 4954 section 6: 454 4.7.0 temporary authentication failure (throttled, or our failure) */
  authUnavailable: () => new SmtpReply(454, '4.7.0', 'Temporary authentication failure, try again later'),
  /** too many failed AUTH attempts in one session: the session closes (RFC 5321 section 3.8) */
  tooManyAuthFailures: () =>
    new SmtpReply(421, '4.7.0', 'Too many failed authentication attempts, closing connection'),
  /** RFC 6409 section 6.1 and RFC 3463 5.7.1: the sender is not the authenticated user's address */
  senderNotOwned: (what: string) =>
    new SmtpReply(553, '5.7.1', `${what} is not owned by the authenticated user`),
  /** RFC 3463 5.7.1: this account may not send to that recipient (relaying denied by policy) */
  recipientNotAllowed: (address: string) =>
    new SmtpReply(
      550,
      '5.7.1',
      `<${address.replace(/[^\x21-\x7e]/g, '?')}>: This mailbox may only send to this service's own domains`,
    ),
  /** RFC 3463 4.7.1: the account's hourly or daily sending allowance is used up; retried later */
  sendingLimit: () => new SmtpReply(451, '4.7.1', 'Sending limit reached, try again later'),
  /** RFC 5321 section 4.2.2 451: local error in processing; RFC 3463 4.3.0 */
  storageFailed: () =>
    new SmtpReply(451, '4.3.0', 'Temporary local error while storing the message, try again later'),
};

/** The reply as our server puts it on the wire, one line without its CRLF: `550 5.1.1 …`. */
export function replyLine(reply: SmtpReply): string {
  return `${reply.responseCode} ${reply.message}`;
}

/**
 * The enhanced status code (RFC 3463) at the start of an SMTP reply's text, as servers announcing
 * ENHANCEDSTATUSCODES (RFC 2034 section 3) and most others send it: `550 5.1.1 …` or `550-5.1.1 …`.
 */
export function enhancedStatus(reply: string): string | null {
  const match = /^[245]\d\d[ -]([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/.exec(reply.trim());
  return match ? `${match[1]}.${match[2]}.${match[3]}` : null;
}

export interface ParsedReply {
  /** the reply code (RFC 5321 section 4.2.1), 200 to 599 */
  code: number;
  /** the RFC 3463 code that leads the first line's text, or null */
  enhancedCode: string | null;
  /** the text of each line, without the code and without a leading enhanced code */
  lines: string[];
}

/** RFC 3463 section 2: class.subject.detail, class 2, 4 or 5, subject and detail up to 3 digits. */
const ENHANCED = /^([245]\.\d{1,3}\.\d{1,3})(?: |$)/;

/**
 * Reads a complete reply (RFC 5321 section 4.2: `Reply-code "-" text CRLF` for every line but the
 * last, `Reply-code [SP text] CRLF` for the last, the same code on every line). Null when the text
 * is not one.
 */
export function parseReply(text: string): ParsedReply | null {
  const body = text.endsWith('\r\n') ? text.slice(0, -2) : text;
  const rawLines = body.split('\r\n');
  let code = 0;
  let enhancedCode: string | null = null;
  const lines: string[] = [];
  for (const [index, line] of rawLines.entries()) {
    // RFC 5321 section 4.2: the first digit is 2 to 5 (1yz is never used in SMTP), the second 0 to 5.
    const match = /^([2-5][0-5]\d)(?:([ -])([^\r\n]*))?$/.exec(line);
    if (!match) return null;
    // Every line but the last continues with "-"; the last has a space or nothing after its code.
    const continues = match[2] === '-';
    if (continues !== index < rawLines.length - 1) return null;
    const lineCode = Number(match[1]);
    if (index > 0 && lineCode !== code) return null;
    code = lineCode;
    let lineText = match[3] ?? '';
    const enhanced = ENHANCED.exec(lineText);
    if (enhanced) {
      if (index === 0) enhancedCode = enhanced[1] ?? null;
      lineText = lineText.slice(enhanced[0].length);
    }
    lines.push(lineText);
  }
  return { code, enhancedCode, lines };
}
