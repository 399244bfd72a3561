/**
 * The message/delivery-status body of a delivery status notification (RFC 3464 section 2): the
 * per-message fields, then one group of per-recipient fields for each recipient, groups separated
 * by an empty line, fields in the header syntax of RFC 5322 section 2.2 in US-ASCII (section 2.1).
 * Written for our bounces and read back (a bounce someone else's server sent us is read the same).
 */

import { rfc5322Date } from '../mime/date-time.js';
import { enhancedStatus } from '../smtp/smtp-reply.js';

/** Text that is not a delivery-status body; `message` says what is wrong with it. */
export class DsnSyntaxError extends Error {
  override readonly name = 'DsnSyntaxError';
}

/** RFC 3464 section 2.3.3. */
export type DsnAction = 'failed' | 'delayed' | 'delivered' | 'relayed' | 'expanded';
const ACTIONS: readonly string[] = ['failed', 'delayed', 'delivered', 'relayed', 'expanded'];

export interface RecipientStatus {
  /** Final-Recipient (section 2.3.2), an RFC 822 address, without its `rfc822;` type */
  finalRecipient: string;
  action: DsnAction;
  /** Status (section 2.3.4): an RFC 3463 code */
  status: string;
  /** Remote-MTA (section 2.3.5), a host name without its `dns;` type; null when none answered */
  remoteMta: string | null;
  /** Diagnostic-Code (section 2.3.6): the reply the remote MTA gave, without its `smtp;` type */
  diagnosticCode: string | null;
  /** Last-Attempt-Date (section 2.3.7), milliseconds since the epoch */
  lastAttemptDate: number | null;
}

export interface DeliveryStatusReport {
  /** Reporting-MTA (section 2.2.2), a host name without its `dns;` type */
  reportingMta: string;
  /** Arrival-Date (section 2.2.5), milliseconds since the epoch */
  arrivalDate: number | null;
  recipients: RecipientStatus[];
}

/** Header lines stay well under RFC 5322's 998 octets (section 2.1.1). */
const MAX_FIELD_CHARS = 900;

/** Characters outside printable US-ASCII become `?`: delivery-status fields are ASCII (section 2.1). */
function ascii(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_FIELD_CHARS);
}

/**
 * The Status of a failed recipient in a bounce. RFC 3464 section 2.3.4: `Action: failed` goes with a
 * class 5 code. It is the reply's own enhanced code when that is permanent; X.4.7 "delivery time
 * expired" (RFC 3463 section 3.5) when retries ran out, whatever the last temporary answer was;
 * else the code the failure came with (a null MX, an unknown domain); else 5.0.0.
 */
export function failureStatus(failure: { reply?: string | null; status?: string; expired: boolean }): string {
  if (failure.expired) return '5.4.7';
  const fromReply = failure.reply ? enhancedStatus(failure.reply) : null;
  if (fromReply?.startsWith('5.')) return fromReply;
  if (failure.status?.startsWith('5.')) return failure.status;
  return '5.0.0';
}

/**
 * The body of a message/delivery-status part (section 2.1): per-message fields, then one group per
 * recipient; every line ends in CRLF. Values are made printable ASCII, so no value can start a field
 * or a group of its own.
 */
export function formatDeliveryStatus(report: DeliveryStatusReport): string {
  const perMessage = [`Reporting-MTA: dns; ${ascii(report.reportingMta)}`];
  if (report.arrivalDate !== null) perMessage.push(`Arrival-Date: ${rfc5322Date(report.arrivalDate)}`);
  const groups = [
    perMessage,
    ...report.recipients.map((recipient) => {
      const fields = [
        `Final-Recipient: rfc822; ${ascii(recipient.finalRecipient)}`,
        `Action: ${recipient.action}`,
        `Status: ${recipient.status}`,
      ];
      if (recipient.remoteMta) fields.push(`Remote-MTA: dns; ${ascii(recipient.remoteMta)}`);
      if (recipient.diagnosticCode) fields.push(`Diagnostic-Code: smtp; ${ascii(recipient.diagnosticCode)}`);
      if (recipient.lastAttemptDate !== null) {
        fields.push(`Last-Attempt-Date: ${rfc5322Date(recipient.lastAttemptDate)}`);
      }
      return fields;
    }),
  ];
  return groups.map((fields) => `${fields.join('\r\n')}\r\n`).join('\r\n');
}

/** One group of fields: lower-case name → unfolded value. */
type Group = Map<string, string>;

/**
 * Groups of fields, split at empty lines. Continuation lines (starting with space or tab) unfold
 * into the field before them (RFC 5322 section 2.2.3); field names are printable ASCII without ":"
 * (section 2.2).
 */
function readGroups(text: string): Group[] {
  const groups: Group[] = [];
  let group: Group | null = null;
  let last: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') {
      group = null;
      last = null;
      continue;
    }
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (!group || last === null) throw new DsnSyntaxError('continuation line without a field');
      group.set(last, `${group.get(last) ?? ''} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trimEnd().toLowerCase();
    if (colon <= 0 || !/^[\x21-\x39\x3b-\x7e]+$/.test(name)) {
      throw new DsnSyntaxError(`not a field: ${line.slice(0, 80)}`);
    }
    if (!group) {
      group = new Map();
      groups.push(group);
    }
    if (group.has(name)) throw new DsnSyntaxError(`field ${name} appears twice in one group`);
    group.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return groups;
}

/** `type; value` (sections 2.2.2, 2.3.2, 2.3.5, 2.3.6): the value, after its type is checked. */
function typed(group: Group, name: string, type: string): string | null {
  const field = group.get(name);
  if (field === undefined) return null;
  const semicolon = field.indexOf(';');
  if (semicolon < 0) throw new DsnSyntaxError(`${name} has no type`);
  const fieldType = field.slice(0, semicolon).trim().toLowerCase();
  if (!/^[a-z0-9-]+$/.test(fieldType)) throw new DsnSyntaxError(`${name} has a malformed type`);
  if (fieldType !== type) throw new DsnSyntaxError(`${name} is of type ${fieldType}, not ${type}`);
  return field.slice(semicolon + 1).trim();
}

function date(group: Group, name: string): number | null {
  const field = group.get(name);
  if (field === undefined) return null;
  const time = Date.parse(field);
  if (!Number.isFinite(time)) throw new DsnSyntaxError(`${name} is not a date`);
  return time;
}

function required<T>(value: T | null, name: string): T {
  if (value === null) throw new DsnSyntaxError(`${name} is missing`);
  return value;
}

/**
 * Reads a message/delivery-status body: the per-message group and at least one per-recipient
 * group (section 2.1), with the fields this server writes; other fields are allowed and skipped.
 * Throws DsnSyntaxError, and nothing else, for text that is not one.
 */
export function parseDeliveryStatus(text: string): DeliveryStatusReport {
  const [perMessage, ...perRecipient] = readGroups(text);
  if (!perMessage) throw new DsnSyntaxError('no per-message fields');
  if (perRecipient.length === 0) throw new DsnSyntaxError('no per-recipient fields');
  return {
    // Section 2.2.2: Reporting-MTA is required.
    reportingMta: required(typed(perMessage, 'reporting-mta', 'dns'), 'Reporting-MTA'),
    arrivalDate: date(perMessage, 'arrival-date'),
    recipients: perRecipient.map((group) => {
      // Section 2.3: Final-Recipient, Action and Status are required.
      const action = required(group.get('action')?.toLowerCase() ?? null, 'Action');
      if (!ACTIONS.includes(action)) throw new DsnSyntaxError(`unknown Action ${action.slice(0, 20)}`);
      const status = required(group.get('status') ?? null, 'Status');
      // Section 2.3.4 and RFC 3463 section 2: class.subject.detail.
      if (!/^[245]\.\d{1,3}\.\d{1,3}$/.test(status)) throw new DsnSyntaxError('malformed Status');
      return {
        finalRecipient: required(typed(group, 'final-recipient', 'rfc822'), 'Final-Recipient'),
        action: action as DsnAction,
        status,
        remoteMta: typed(group, 'remote-mta', 'dns'),
        diagnosticCode: typed(group, 'diagnostic-code', 'smtp'),
        lastAttemptDate: date(group, 'last-attempt-date'),
      };
    }),
  };
}
