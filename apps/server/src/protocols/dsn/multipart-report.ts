/**
 * The multipart/report message of RFC 6522 (formerly RFC 3462) with report-type delivery-status
 * (RFC 3464 section 2): a human-readable part, the message/delivery-status part, and the returned
 * original's header block as text/rfc822-headers (RFC 6522 section 4).
 */

export interface ReportParts {
  /**
   * The report's own header fields (From, To, Subject, Date, Message-ID, …), each complete and
   * folded, without CRLF; MIME-Version and Content-Type are added here.
   */
  headerFields: string[];
  /** the multipart boundary (RFC 2046 section 5.1.1): it must not occur in any part */
  boundary: string;
  /** the explanation for people, the first part (RFC 6522 section 3), sent as UTF-8 in base64 */
  notification: string;
  /** the message/delivery-status body (formatDeliveryStatus) */
  deliveryStatus: string;
  /** the original's header block as it was sent, without the empty line that ends it */
  originalHeaders: Buffer;
}

/** Base64 in 76-character lines (RFC 2045 section 6.8). */
function base64Lines(text: string): string {
  return (
    Buffer.from(text, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
}

/** The whole report message, every line ending in CRLF. */
export function composeReport(parts: ReportParts): Buffer {
  const { boundary } = parts;
  const headerFields = [
    ...parts.headerFields,
    'MIME-Version: 1.0',
    // RFC 6522 section 3: report-type names the second part's type.
    `Content-Type: multipart/report; report-type=delivery-status;\r\n boundary="${boundary}"`,
  ];
  const headers = parts.originalHeaders;
  // Our own messages are 7-bit (encoded words); anything else is passed on as it was sent, and
  // 8-bit octets must be labelled so (RFC 2045 section 6.2).
  const headersEncoding = headers.some((byte) => byte > 0x7f) ? '8bit' : '7bit';
  const text = [
    `${headerFields.join('\r\n')}\r\n\r\n`,
    // RFC 2046 section 5.1.1: the preamble, for readers without MIME.
    'This is a MIME-encapsulated delivery status notification (RFC 3464).\r\n',
    `--${boundary}\r\n`,
    'Content-Type: text/plain; charset=UTF-8\r\n',
    'Content-Description: Notification\r\n',
    'Content-Transfer-Encoding: base64\r\n\r\n',
    `${base64Lines(parts.notification)}\r\n\r\n`,
    `--${boundary}\r\n`,
    'Content-Type: message/delivery-status\r\n',
    'Content-Description: Delivery report\r\n\r\n',
    parts.deliveryStatus,
    `\r\n--${boundary}\r\n`,
    'Content-Type: text/rfc822-headers\r\n',
    'Content-Description: Undelivered message headers\r\n',
    `Content-Transfer-Encoding: ${headersEncoding}\r\n\r\n`,
  ].join('');
  return Buffer.concat([
    Buffer.from(text, 'utf8'),
    headers,
    Buffer.from(`\r\n\r\n--${boundary}--\r\n`, 'ascii'),
  ]);
}
