import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Tables as the query builder sees them. Portable types only, so one set of queries runs on SQLite
 * and PostgreSQL: times are epoch milliseconds (integer / bigint), flags are 0 or 1.
 */
export interface Database {
  system_accounts: SystemAccountTable;
  sessions: SessionTable;
  domains: DomainTable;
  mailboxes: MailboxTable;
  settings: SettingTable;
  raw_messages: RawMessageTable;
  message_raw_chunks: MessageRawChunkTable;
  messages: MessageTable;
  mail_folders: MailFolderTable;
  mail_filters: MailFilterTable;
  ip_blacklist: IpBlacklistTable;
  personal_settings: PersonalSettingTable;
  login_history: LoginHistoryTable;
  api_keys: ApiKeyTable;
  domain_dkim_keys: DomainDkimKeyTable;
  domain_dns_providers: DomainDnsProviderTable;
  cards: CardTable;
  orders: OrderTable;
  uploads: UploadTable;
  upload_chunks: UploadChunkTable;
  sent_messages: SentMessageTable;
  sent_message_chunks: SentMessageChunkTable;
  outbound_queue: OutboundQueueTable;
  rate_counters: RateCounterTable;
  acme_challenges: AcmeChallengeTable;
  retired_addresses: RetiredAddressTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  mail_forwards: MailForwardTable;
}

export interface SystemAccountTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: 'admin' | 'user';
  enabled: number;
  max_domains: number;
  max_mailboxes: number;
  created_at: number;
  last_login_at: number | null;
}
export type SystemAccountRow = Selectable<SystemAccountTable>;
export type NewSystemAccountRow = Insertable<SystemAccountTable>;
export type SystemAccountUpdate = Updateable<SystemAccountTable>;

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  subject_kind: 'system' | 'mailbox';
  subject_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
  revoked_at: number | null;
}
export type SessionRow = Selectable<SessionTable>;

export interface DomainTable {
  id: Generated<number>;
  name: string;
  owner_id: number;
  public_registration: number;
  for_sale: number;
  price: number;
  dkim_selector: string | null;
  dkim_private_key: string | null;
  dkim_public_key: string | null;
  dns_status: Generated<string>;
  created_at: number;
  /** migration 005 */
  dns_checked_at: number | null;
  /** migration 040: `pending` until the DNS TXT challenge holds, then `active` */
  status: Generated<'pending' | 'active'>;
  verification_token: string | null;
}
export type DomainRow = Selectable<DomainTable>;
export type DomainUpdate = Updateable<DomainTable>;

/**
 * One row per address that can receive mail: an address a user created (`kind = 'address'`, read by
 * its owner) or a mailbox account people log in to (`kind = 'account'`; a temporary mailbox is an
 * account without a password, reached by its session token only).
 */
export interface MailboxTable {
  id: Generated<number>;
  address: string;
  local_part: string;
  domain_id: number;
  owner_id: number;
  kind: 'address' | 'account';
  password_hash: string | null;
  enabled: number;
  quota_bytes: number;
  used_bytes: number;
  expires_at: number | null;
  source: string;
  note: string;
  created_at: number;
  /** migration 055: 1 while the password is the credential generated at a one-click regEmail */
  password_generated: Generated<number>;
}
export type MailboxRow = Selectable<MailboxTable>;
export type NewMailboxRow = Insertable<MailboxTable>;

/** A DKIM key of a domain (migration 005); PEM texts, the private one never leaves the server. */
export interface DomainDkimKeyTable {
  id: Generated<number>;
  domain_id: number;
  selector: string;
  algorithm: 'rsa' | 'ed25519';
  private_key: string;
  public_key: string;
  active: number;
  created_at: number;
}
export type DomainDkimKeyRow = Selectable<DomainDkimKeyTable>;

/** How a domain's records are written (migration 005): RFC 2136 UPDATE signed with TSIG. */
export interface DomainDnsProviderTable {
  domain_id: number;
  /** rfc2136, alidns, dnspod or cloudflare (no migration: the column was text from the start) */
  kind: 'rfc2136' | 'alidns' | 'dnspod' | 'cloudflare';
  /** rfc2136: the name server; '' for the HTTP APIs */
  server: string;
  zone: string;
  /** rfc2136: the TSIG key name; alidns: the AccessKey ID; dnspod: the SecretId; cloudflare: '' */
  key_name: string;
  /** rfc2136: the TSIG algorithm; '' for the HTTP APIs */
  algorithm: string;
  /**
   * rfc2136: the base64 TSIG secret; alidns: the AccessKey Secret; dnspod: the SecretKey;
   * cloudflare: the API token. Write-only through the API, never logged.
   */
  secret: string;
  updated_at: number;
}
export type DomainDnsProviderRow = Selectable<DomainDnsProviderTable>;

export interface SettingTable {
  key: string;
  value: string;
}

/** The bytes of one received DATA, shared by the messages of all its recipients. */
export interface RawMessageTable {
  id: Generated<number>;
  size: number;
  sha256: string;
  created_at: number;
}

/** 256 KiB slices of a raw message, in order (`seq` from 0). */
export interface MessageRawChunkTable {
  raw_id: number;
  seq: number;
  data: Buffer;
}

/** One received message in one mailbox. */
export interface MessageTable {
  id: Generated<number>;
  mailbox_id: number;
  raw_id: number;
  envelope_from: string;
  from_name: string;
  from_address: string;
  subject: string;
  snippet: string;
  text_body: string | null;
  html_body: string | null;
  /** JSON `[{ name, address }]` */
  to_json: string;
  cc_json: string;
  /** JSON `StoredAttachment[]` (see modules/mail/mail-parser.ts) */
  attachments_json: string;
  message_id: string;
  sent_at: number | null;
  received_at: number;
  size: number;
  read: number;
  starred: number;
  spam: number;
  has_attachments: number;
  parse_error: string | null;
  /** the one-time code the message carries (migration 049), null when none or stored before */
  code: ColumnType<string | null, string | null | undefined, string | null>;
  /** migration 052: JSON `MessageAuth` (SPF, DKIM, DMARC) of mail received over SMTP, or null */
  auth: ColumnType<string | null, string | null | undefined, string | null>;
  /** the folder the message is in (migration 050) */
  folder: ColumnType<FolderName, FolderName | undefined, FolderName>;
  /**
   * the owner of its mailbox (migration 059): written by insertMessages, or by a trigger when an
   * insert leaves it out; never set by hand
   */
  owner_id: ColumnType<number, never, never>;
  /** its IMAP UID in that folder, taken from the folder row (db/repositories/folder-repo.ts) */
  uid: number;
  /** the folder's modification sequence at the message's last change (RFC 7162) */
  modseq: ColumnType<number, number | undefined, number>;
  /** IMAP flags without a column of their own: MESSAGE_FLAG_BITS */
  flags: ColumnType<number, number | undefined, number>;
  /** IMAP keywords, space-separated */
  keywords: ColumnType<string, string | undefined, string>;
}
export type MessageRow = Selectable<MessageTable>;

/** The folders every mailbox has; `inbox` and `junk` take incoming mail. */
export const FOLDER_NAMES = ['inbox', 'sent', 'drafts', 'junk', 'trash'] as const;
export type FolderName = (typeof FOLDER_NAMES)[number];

/** Bits of `messages.flags` (\Seen is `read`, \Flagged is `starred`). */
export const MESSAGE_FLAG_BITS = { answered: 1, deleted: 2, draft: 4 } as const;

/** One folder of one mailbox (migration 050): its UIDVALIDITY, next UID and highest modseq. */
export interface MailFolderTable {
  id: Generated<number>;
  mailbox_id: number;
  name: FolderName;
  uidvalidity: number;
  uidnext: number;
  highest_modseq: number;
  created_at: number;
}
export type MailFolderRow = Selectable<MailFolderTable>;
export type NewMessageRow = Insertable<MessageTable>;

export interface MailFilterTable {
  id: Generated<number>;
  owner_id: number;
  field: 'from' | 'to' | 'subject' | 'body';
  match: 'contains' | 'equals' | 'regex';
  value: string;
  action: 'reject' | 'discard' | 'spam';
  enabled: number;
  created_at: number;
}
export type MailFilterRow = Selectable<MailFilterTable>;

/** A blocked address or CIDR range (IPv4 or IPv6), refused on SMTP and HTTP. */
export interface IpBlacklistTable {
  id: Generated<number>;
  ip: string;
  reason: string;
  created_at: number;
  expires_at: number | null;
  /** migration 020: manual, login or smtp */
  source: Generated<'manual' | 'login' | 'smtp'>;
}

/** A prepaid card code; see modules/cards/card-code.ts for the code's form. */
export interface CardTable {
  id: Generated<number>;
  code: string;
  code_hash: string;
  batch_id: string;
  owner_id: number;
  domain_id: number | null;
  valid_days: number;
  quota_bytes: number;
  status: 'unused' | 'used' | 'disabled';
  used_by: string | null;
  used_at: number | null;
  note: string;
  created_at: number;
}
export type CardRow = Selectable<CardTable>;

/** A store order for one mailbox: pending → paid → delivered, or cancelled / expired. */
export interface OrderTable {
  id: Generated<number>;
  order_no: string;
  domain_id: number;
  owner_id: number;
  local_part: string;
  address: string;
  phone: string;
  password_hash: string;
  amount: number;
  pay_method: string;
  status: 'pending' | 'paid' | 'delivered' | 'cancelled' | 'expired';
  trade_no: string | null;
  mailbox_id: number | null;
  failure: string | null;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  delivered_at: number | null;
}
export type OrderRow = Selectable<OrderTable>;

/** Display name and signature of an account or mailbox (migration 020). */
export interface PersonalSettingTable {
  subject_kind: 'system' | 'mailbox';
  subject_id: number;
  display_name: string;
  signature: string;
  updated_at: number;
}

/** One login attempt (migration 020); failures for unknown names have no subject. */
export interface LoginHistoryTable {
  id: Generated<number>;
  subject_kind: 'system' | 'mailbox' | null;
  subject_id: number | null;
  identifier: string;
  ip: string;
  user_agent: string;
  success: number;
  reason: string;
  created_at: number;
}
export type LoginHistoryRow = Selectable<LoginHistoryTable>;

/** An API key of a system account for the open API (migration 020); only its hash is stored. */
export interface ApiKeyTable {
  id: Generated<number>;
  owner_id: number;
  key_hash: string;
  key_hint: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}
export type ApiKeyRow = Selectable<ApiKeyTable>;

/** An uploaded attachment (migration 015), owned by whoever uploaded it; bytes in `upload_chunks`. */
export interface UploadTable {
  id: string;
  owner_kind: 'system' | 'mailbox';
  owner_id: number;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: number;
}
export type UploadRow = Selectable<UploadTable>;

export interface UploadChunkTable {
  upload_id: string;
  seq: number;
  data: Buffer;
}

/** A message in the sent folder (migration 015); its signed bytes are in `sent_message_chunks`. */
export interface SentMessageTable {
  id: Generated<number>;
  account_id: number | null;
  mailbox_id: number | null;
  from_address: string;
  /** JSON string[] */
  to_json: string;
  cc_json: string;
  bcc_json: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  /** JSON `[{ filename, contentType, size }]` */
  attachments_json: string;
  message_id: string;
  recipient_count: number;
  size: number;
  sha256: string;
  created_at: number;
  /** migration 053: `forward` for a forwarded copy or a returned bounce, listed in no sent folder */
  kind: Generated<'sent' | 'forward'>;
  /** migration 053: the envelope sender when it is not from_address (SRS0, or '' for a bounce) */
  envelope_from: string | null;
}
export type SentMessageRow = Selectable<SentMessageTable>;

export interface SentMessageChunkTable {
  sent_id: number;
  seq: number;
  data: Buffer;
}

export type OutboundStatus = 'queued' | 'sending' | 'delivered' | 'retrying' | 'failed';

/** The bounce (RFC 3464 DSN) of a failed recipient (migration 030); null when none is due. */
export type BounceState = 'pending' | 'sent' | 'skipped' | 'abandoned';

/** One recipient of one sent message in the outbound queue (migrations 015 and 030). */
export interface OutboundQueueTable {
  id: Generated<number>;
  sent_id: number;
  rcpt: string;
  status: OutboundStatus;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  last_error: string | null;
  remote_response: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  /** the last SMTP reply a server gave about this recipient, as sent */
  last_reply: string | null;
  /** the host that gave it (MX or relay) */
  remote_mta: string | null;
  /** RFC 3463 status of a failed delivery (5.x.x) */
  failure_status: string | null;
  bounce_state: BounceState | null;
  bounce_owner: string | null;
  bounce_due_at: number | null;
  bounce_attempts: Generated<number>;
}
export type OutboundQueueRow = Selectable<OutboundQueueTable>;

/** Events of one rate limit, key and time bucket, shared by processes (migration 035). */
/** migration 054: ACME HTTP-01 challenges in flight, read by every process (PostgreSQL) */
export interface AcmeChallengeTable {
  token: string;
  key_authorization: string;
  expires_at: number;
}

export interface RateCounterTable {
  name: string;
  key: string;
  bucket: number;
  count: number;
  expires_at: number;
}

/** migration 040: addresses whose mailbox expired or was deleted recently */
export interface RetiredAddressTable {
  address: string;
  retired_at: number;
}

/** A webhook (`http`) or the owner's Telegram bot (`telegram`) told of new mail (migration 051). */
export interface WebhookTable {
  id: Generated<number>;
  owner_id: number;
  kind: 'http' | 'telegram';
  url: string | null;
  chat_id: string | null;
  /** the HMAC key of a webhook, the bot token of a Telegram target: never shown after creation */
  secret: string;
  /** JSON string[] */
  events_json: string;
  address: string | null;
  enabled: number;
  created_at: number;
  last_status: 'delivered' | 'failed' | null;
  last_response_code: number | null;
  last_attempt_at: number | null;
}
export type WebhookRow = Selectable<WebhookTable>;

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one target in the webhook queue (migration 051). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  webhook_id: number;
  event: string;
  message_id: number | null;
  /** the JSON body of an event not about a message (`order.created`, migration 058); null for mail */
  payload: string | null;
  delivery_key: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  response_code: number | null;
  /** every attempt's HTTP status, comma-separated, 0 when none answered */
  response_codes: Generated<string>;
  last_error: string | null;
  duration_ms: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;

/** A mailbox's forwarding target (migration 053, modules/forwarding). */
export interface MailForwardTable {
  mailbox_id: number;
  forward_to: string;
  keep_copy: number;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_skipped_at: number | null;
  last_skip_reason: string | null;
}
export type MailForwardRow = Selectable<MailForwardTable>;
