import { type Static, Type } from '@sinclair/typebox';
import { EmailAddress, Id, Ids, LocalPart, NullableTime, PageQuery, Time, TimeInput } from './common.js';

export const CreateEmailBody = Type.Object({ domainId: Id, localPart: Type.Optional(LocalPart) });
export type CreateEmailBody = Static<typeof CreateEmailBody>;
export const CreatedAddress = Type.Object({ id: Id, address: Type.String() });
export type CreatedAddress = Static<typeof CreatedAddress>;

export const AddressItem = Type.Object({
  id: Id,
  address: Type.String(),
  unread: Type.Integer(),
  createdAt: Time,
  expiresAt: NullableTime,
});
export type AddressItem = Static<typeof AddressItem>;
export const AddressList = Type.Array(AddressItem);

export const Person = Type.Object({ name: Type.String(), address: Type.String() });
export type Person = Static<typeof Person>;

export const InboxQuery = Type.Composite([
  PageQuery,
  Type.Object({
    address: Type.Optional(Type.String({ maxLength: 254 })),
    unread: Type.Optional(Type.Boolean()),
    starred: Type.Optional(Type.Boolean()),
    q: Type.Optional(Type.String({ maxLength: 200 })),
    /** `inbox` (default) or `junk` */
    folder: Type.Optional(Type.Union([Type.Literal('inbox'), Type.Literal('junk')])),
  }),
]);
export type InboxQuery = Static<typeof InboxQuery>;

/** One check's outcome (RFC 8601 section 2.7: SPF, DKIM and DMARC results) */
export const AuthResult = Type.Union(
  ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror'].map((value) =>
    Type.Literal(value),
  ),
);
export type AuthResult = Static<typeof AuthResult>;

/**
 * What SPF, DKIM and DMARC said when the message arrived over SMTP; all `none` for mail not checked
 * (delivered inside the service, or stored before the checks existed).
 */
export const MailAuth = Type.Object({
  spf: AuthResult,
  dkim: AuthResult,
  dmarc: AuthResult,
  /** the domain SPF checked */
  spfDomain: Type.Optional(Type.String()),
  /** domains of the DKIM signatures that verified */
  dkimDomains: Type.Optional(Type.Array(Type.String())),
  /** the From header's domain DMARC judged */
  fromDomain: Type.Optional(Type.String()),
  /** that domain's DMARC policy */
  policy: Type.Optional(
    Type.Union([Type.Literal('none'), Type.Literal('quarantine'), Type.Literal('reject')]),
  ),
});
export type MailAuth = Static<typeof MailAuth>;

export const MailItem = Type.Object({
  id: Id,
  address: Type.String(),
  from: Person,
  subject: Type.String(),
  snippet: Type.String(),
  receivedAt: Time,
  read: Type.Boolean(),
  starred: Type.Boolean(),
  spam: Type.Boolean(),
  hasAttachments: Type.Boolean(),
  size: Type.Integer(),
  /** the one-time code in the message (verification, login, OTP), or null */
  code: Type.Union([Type.String(), Type.Null()]),
  /** SPF, DKIM and DMARC of the message (the reader's badge) */
  auth: MailAuth,
});
export type MailItem = Static<typeof MailItem>;

export const AttachmentItem = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  contentId: Type.Optional(Type.String()),
  inline: Type.Optional(Type.Boolean()),
});
export const MailDetail = Type.Composite([
  MailItem,
  Type.Object({
    to: Type.Array(Person),
    cc: Type.Array(Person),
    html: Type.Union([Type.String(), Type.Null()]),
    text: Type.Union([Type.String(), Type.Null()]),
    messageId: Type.Optional(Type.String()),
    attachments: Type.Array(AttachmentItem),
  }),
]);
export type MailDetail = Static<typeof MailDetail>;

export const UnreadData = Type.Object({
  total: Type.Integer(),
  byAddress: Type.Record(Type.String(), Type.Integer()),
});
export type UnreadData = Static<typeof UnreadData>;

export const SetReadBody = Type.Object({ ids: Ids, read: Type.Optional(Type.Boolean()) });
export const UpdateEmailBody = Type.Object({
  id: Id,
  starred: Type.Optional(Type.Boolean()),
  spam: Type.Optional(Type.Boolean()),
});
/**
 * starEmail: star or unstar several messages at once (updateEmail takes one). Ids outside the
 * caller's mail are skipped; `updated` counts the ones changed. At most 1000 ids, like setReadEmail
 * and delEmail.
 */
export const StarEmailBody = Type.Object({ ids: Ids, starred: Type.Boolean() });
export type StarEmailBody = Static<typeof StarEmailBody>;
/**
 * markAllRead: every unread received message (inbox and junk) of the caller's mail, or of one of its
 * addresses; an address outside the caller's mail answers 404.
 */
export const MarkAllReadBody = Type.Object({
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
});
export type MarkAllReadBody = Static<typeof MarkAllReadBody>;
export const DeleteRangeBody = Type.Object({
  start: TimeInput,
  end: TimeInput,
  address: Type.Optional(Type.String({ maxLength: 254 })),
});

export const UploadedFile = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  size: Type.Integer(),
  contentType: Type.String(),
});
export type UploadedFile = Static<typeof UploadedFile>;

export const SendEmailBody = Type.Object({
  from: EmailAddress,
  to: Type.Array(EmailAddress, { minItems: 1, maxItems: 100 }),
  cc: Type.Optional(Type.Array(EmailAddress, { maxItems: 100 })),
  bcc: Type.Optional(Type.Array(EmailAddress, { maxItems: 100 })),
  subject: Type.String({ maxLength: 998 }),
  html: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  attachments: Type.Optional(Type.Array(Type.String(), { maxItems: 50 })),
  inReplyTo: Type.Optional(Type.String({ maxLength: 998 })),
  /** the draft this message was written in: removed from the Drafts folder once the message is queued */
  draftId: Type.Optional(Id),
});
export type SendEmailBody = Static<typeof SendEmailBody>;

/**
 * Attachment ids of a draft or a message: upload ids (uploadFile) or ids of the attachments of one
 * of the caller's drafts (`<draftId>-<index>`, as getDraft lists them), kept without uploading again.
 */
const AttachmentRefs = Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 50 });

/** POST saveDraft: creates a draft, or replaces draft `id` (the answer's id is the one to use next). */
export const SaveDraftBody = Type.Object({
  id: Type.Optional(Id),
  /** the sending address; the draft is kept in the Drafts folder of its mailbox */
  from: EmailAddress,
  to: Type.Optional(Type.Array(EmailAddress, { maxItems: 100 })),
  cc: Type.Optional(Type.Array(EmailAddress, { maxItems: 100 })),
  bcc: Type.Optional(Type.Array(EmailAddress, { maxItems: 100 })),
  subject: Type.Optional(Type.String({ maxLength: 998 })),
  html: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  attachments: Type.Optional(AttachmentRefs),
  inReplyTo: Type.Optional(Type.String({ maxLength: 998 })),
});
export type SaveDraftBody = Static<typeof SaveDraftBody>;
export const SaveDraftData = Type.Object({ id: Id, savedAt: Time });
export type SaveDraftData = Static<typeof SaveDraftData>;

/** One draft of draftList (newest first): the mailbox it is kept in and what it looks like. */
export const DraftItem = Type.Object({
  id: Id,
  /** the mailbox whose Drafts folder holds it */
  address: Type.String(),
  to: Type.Array(Type.String()),
  subject: Type.String(),
  snippet: Type.String(),
  savedAt: Time,
  hasAttachments: Type.Boolean(),
  size: Type.Integer(),
});
export type DraftItem = Static<typeof DraftItem>;

/** getDraft: everything compose needs to go on writing. `html` is sanitised like getEmail's. */
export const DraftDetail = Type.Object({
  id: Id,
  address: Type.String(),
  from: Type.String(),
  to: Type.Array(Type.String()),
  cc: Type.Array(Type.String()),
  bcc: Type.Array(Type.String()),
  subject: Type.String(),
  html: Type.Union([Type.String(), Type.Null()]),
  text: Type.Union([Type.String(), Type.Null()]),
  attachments: Type.Array(
    Type.Object({
      id: Type.String(),
      filename: Type.String(),
      contentType: Type.String(),
      size: Type.Integer(),
    }),
  ),
  inReplyTo: Type.Union([Type.String(), Type.Null()]),
  savedAt: Time,
});
export type DraftDetail = Static<typeof DraftDetail>;
export const DeliveryStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('sending'),
  Type.Literal('delivered'),
  Type.Literal('retrying'),
  Type.Literal('failed'),
]);
export const SendEmailData = Type.Object({ id: Id, status: DeliveryStatus });
export type DeliveryStatus = Static<typeof DeliveryStatus>;
export type SendEmailData = Static<typeof SendEmailData>;
export const Delivery = Type.Object({
  rcpt: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  /** the remote server's answer (or why no server could be reached) of the last failed attempt */
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Optional(NullableTime),
  /** the accepting server's answer once delivered */
  remoteResponse: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  deliveredAt: Type.Optional(NullableTime),
});
export type Delivery = Static<typeof Delivery>;
export const SentItem = Type.Object({
  id: Id,
  from: Type.String(),
  to: Type.Array(Type.String()),
  cc: Type.Optional(Type.Array(Type.String())),
  bcc: Type.Optional(Type.Array(Type.String())),
  subject: Type.String(),
  status: DeliveryStatus,
  createdAt: Time,
  size: Type.Optional(Type.Integer()),
  hasAttachments: Type.Optional(Type.Boolean()),
  messageId: Type.Optional(Type.String()),
  deliveries: Type.Array(Delivery),
});
export type SentItem = Static<typeof SentItem>;
export const SentAttachment = Type.Object({
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});
/** GET getSentDetail?id=: one sent message with what was written (html as the sender wrote it). */
export const SentDetail = Type.Composite([
  SentItem,
  Type.Object({
    html: Type.Union([Type.String(), Type.Null()]),
    text: Type.Union([Type.String(), Type.Null()]),
    attachments: Type.Array(SentAttachment),
  }),
]);
export type SentDetail = Static<typeof SentDetail>;

export const FilterField = Type.Union([
  Type.Literal('from'),
  Type.Literal('to'),
  Type.Literal('subject'),
  Type.Literal('body'),
]);
export const FilterMatch = Type.Union([
  Type.Literal('contains'),
  Type.Literal('equals'),
  Type.Literal('regex'),
]);
export const FilterAction = Type.Union([
  Type.Literal('reject'),
  Type.Literal('discard'),
  Type.Literal('spam'),
]);
export const NewFilter = Type.Object({
  field: FilterField,
  match: FilterMatch,
  value: Type.String({ minLength: 1, maxLength: 500, description: '匹配内容' }),
  action: FilterAction,
  enabled: Type.Optional(Type.Boolean()),
});
export type NewFilter = Static<typeof NewFilter>;
export const Filter = Type.Composite([Type.Object({ id: Id }), Type.Required(NewFilter)]);
export type Filter = Static<typeof Filter>;
export const FilterList = Type.Array(Filter);
