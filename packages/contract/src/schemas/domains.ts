import { type Static, Type } from '@sinclair/typebox';
import { Id, Time } from './common.js';

export const DnsStatus = Type.Union([
  Type.Literal('unchecked'),
  Type.Literal('ok'),
  Type.Literal('partial'),
  Type.Literal('failed'),
]);
export const DomainStatus = Type.Union([Type.Literal('pending'), Type.Literal('active')]);
export type DomainStatus = Static<typeof DomainStatus>;
/** The DNS record that proves a domain is its owner's: `_youju.<domain>` TXT `youju-verify=<random>`. */
export const DomainVerification = Type.Object({
  name: Type.String(),
  type: Type.Literal('TXT'),
  value: Type.String(),
});
export type DomainVerification = Static<typeof DomainVerification>;

export const Domain = Type.Object({
  id: Id,
  name: Type.String(),
  /** the name as people read it, for internationalised domains */
  displayName: Type.String(),
  publicRegistration: Type.Boolean(),
  forSale: Type.Boolean(),
  /** price in fen (分) */
  price: Type.Integer(),
  dkimSelector: Type.Union([Type.String(), Type.Null()]),
  dnsStatus: DnsStatus,
  ownerId: Id,
  createdAt: Time,
  /**
   * `pending` until the owner proves control of the name with the TXT record in `verification`
   * (verifyDomain); a pending domain receives no mail and gets no addresses
   */
  status: DomainStatus,
  verification: Type.Optional(DomainVerification),
});
export type Domain = Static<typeof Domain>;
export const DomainList = Type.Array(Domain);

export const DomainName = Type.String({ minLength: 1, maxLength: 253, description: '域名' });
export const Price = Type.Integer({ minimum: 0, maximum: 100_000_000, description: '价格' });

export const AddDomainBody = Type.Object({
  name: DomainName,
  publicRegistration: Type.Optional(Type.Boolean()),
  forSale: Type.Optional(Type.Boolean()),
  price: Type.Optional(Price),
  /**
   * Required (true) to have a domain both open for free registration and for sale: the owner saw
   * that buying then gets nothing free registration does not (otherwise 400).
   */
  confirmFreeAndSale: Type.Optional(Type.Boolean()),
});
export type AddDomainBody = Static<typeof AddDomainBody>;
export const EditDomainBody = Type.Object({
  id: Id,
  publicRegistration: Type.Optional(Type.Boolean()),
  forSale: Type.Optional(Type.Boolean()),
  price: Type.Optional(Price),
  /** as in addDomain */
  confirmFreeAndSale: Type.Optional(Type.Boolean()),
});
export type EditDomainBody = Static<typeof EditDomainBody>;
export const VerifyDomainBody = Type.Object({ id: Id });
export type VerifyDomainBody = Static<typeof VerifyDomainBody>;
export const DelDomainBody = Type.Object({ id: Id, force: Type.Optional(Type.Boolean()) });
export type DelDomainBody = Static<typeof DelDomainBody>;

export const DnsRecord = Type.Object({ name: Type.String(), type: Type.String(), value: Type.String() });
export type DnsRecord = Static<typeof DnsRecord>;

export const DkimAlgorithm = Type.Union([Type.Literal('rsa'), Type.Literal('ed25519')], {
  description: '密钥算法',
});
export type DkimAlgorithm = Static<typeof DkimAlgorithm>;
/** One published DKIM key of a domain; the private key never leaves the server. */
export const DkimKey = Type.Object({
  selector: Type.String(),
  algorithm: DkimAlgorithm,
  /** active keys sign outgoing mail; an inactive one stays published until removed (rotation) */
  active: Type.Boolean(),
  publicKey: Type.String(),
  record: DnsRecord,
  createdAt: Time,
});
export type DkimKey = Static<typeof DkimKey>;
/** The signing RSA key on top (selector, publicKey, record), every published key in `keys`. */
export const DkimData = Type.Object({
  selector: Type.String(),
  publicKey: Type.String(),
  record: DnsRecord,
  keys: Type.Optional(Type.Array(DkimKey)),
});
export type DkimData = Static<typeof DkimData>;
export const RotateDkimBody = Type.Object({ id: Id, algorithm: Type.Optional(DkimAlgorithm) });
export type RotateDkimBody = Static<typeof RotateDkimBody>;
export const RemoveDkimKeyBody = Type.Object({
  id: Id,
  /** the retired selector to unpublish; absent = every inactive key */
  selector: Type.Optional(Type.String({ minLength: 1, maxLength: 63, description: '选择器' })),
});
export type RemoveDkimKeyBody = Static<typeof RemoveDkimKeyBody>;

/** `timeout`: the resolver did not answer in time, so nothing is known about the record. */
export const DnsCheckStatus = Type.Union([
  Type.Literal('ok'),
  Type.Literal('missing'),
  Type.Literal('wrong'),
  Type.Literal('timeout'),
]);
export type DnsCheckStatus = Static<typeof DnsCheckStatus>;
export const DnsCheckRecord = Type.Object({
  type: Type.String(),
  name: Type.String(),
  expected: Type.String(),
  found: Type.Array(Type.String()),
  status: DnsCheckStatus,
  /** what to set where, in the caller's language (Accept-Language) */
  detail: Type.Optional(Type.String()),
  /** what the record is for: MX, SPF, DKIM or DMARC (type is the DNS type to create) */
  kind: Type.Optional(Type.String()),
  /** the name relative to the domain, as typed at a provider: `@`, `_dmarc`, `sel._domainkey` */
  host: Type.Optional(Type.String()),
  /** the fully qualified name with its final dot: `_dmarc.example.com.` */
  fqdn: Type.Optional(Type.String()),
});
export type DnsCheckRecord = Static<typeof DnsCheckRecord>;
export const DnsRecordsData = Type.Object({
  records: Type.Array(DnsCheckRecord),
  /** checkDNS: the overall status now stored on the domain */
  dnsStatus: Type.Optional(DnsStatus),
  checkedAt: Type.Optional(Time),
  /**
   * checkDNS: why MAIL_HOSTNAME cannot serve as the MX target (not a fully qualified name, or it
   * does not resolve to this server), in the caller's language; absent when it is fine
   */
  hostnameWarning: Type.Optional(Type.String()),
});
export type DnsRecordsData = Static<typeof DnsRecordsData>;

/** TSIG algorithms of RFC 8945 section 6 that the built-in RFC 2136 provider speaks. */
export const TsigAlgorithms = [
  'hmac-sha256',
  'hmac-sha384',
  'hmac-sha512',
  'hmac-sha224',
  'hmac-sha1',
] as const;
export const TsigAlgorithm = Type.Union(
  TsigAlgorithms.map((name) => Type.Literal(name)),
  { description: 'TSIG 算法' },
);
export type TsigAlgorithm = (typeof TsigAlgorithms)[number];
/**
 * How setDNS writes records: RFC 2136 dynamic update with TSIG, or the HTTP API of Alibaba Cloud
 * DNS (alidns), DNSPod (Tencent Cloud API 3.0) or Cloudflare (API v4).
 */
export const DnsProviderKinds = ['rfc2136', 'alidns', 'dnspod', 'cloudflare'] as const;
export const DnsProviderKind = Type.Union(
  DnsProviderKinds.map((name) => Type.Literal(name)),
  { description: 'DNS 服务商类型' },
);
export type DnsProviderKind = (typeof DnsProviderKinds)[number];
/** The DNS provider of a domain as the API shows it: the secret is never sent back, only masked. */
export const DnsProvider = Type.Object({
  kind: DnsProviderKind,
  /** rfc2136: `ip` or `ip:port` of the primary name server that accepts UPDATE; '' for the APIs */
  server: Type.String(),
  /** the zone to update; the domain itself unless it lives inside a parent zone */
  zone: Type.String(),
  /** rfc2136: the TSIG key name; '' for the APIs */
  keyName: Type.String(),
  /** rfc2136 only */
  algorithm: Type.Optional(TsigAlgorithm),
  /** alidns: the AccessKey ID; dnspod: the SecretId (not secret); absent for rfc2136 and cloudflare */
  accessKeyId: Type.Optional(Type.String()),
  /** `••••••••••••` when a secret is stored; nothing of the secret itself */
  secretMasked: Type.String(),
  updatedAt: Time,
});
export type DnsProvider = Static<typeof DnsProvider>;
export const DnsProviderData = Type.Object({ provider: Type.Union([DnsProvider, Type.Null()]) });
export type DnsProviderData = Static<typeof DnsProviderData>;
export const GetDnsProviderQuery = Type.Object({ id: Id });
export const SetDnsProviderBody = Type.Object({
  id: Id,
  /** false removes the provider */
  enabled: Type.Optional(Type.Boolean()),
  /** absent = the stored kind, or rfc2136 */
  kind: Type.Optional(DnsProviderKind),
  server: Type.Optional(Type.String({ maxLength: 100, description: 'DNS 服务器' })),
  zone: Type.Optional(Type.String({ maxLength: 253, description: '区域' })),
  keyName: Type.Optional(Type.String({ maxLength: 253, description: 'TSIG 密钥名' })),
  algorithm: Type.Optional(TsigAlgorithm),
  /** alidns AccessKey ID / dnspod SecretId */
  accessKeyId: Type.Optional(Type.String({ maxLength: 128, description: 'AccessKey ID' })),
  /**
   * rfc2136: the TSIG secret (base64); alidns: the AccessKey Secret; dnspod: the SecretKey;
   * cloudflare: the API token. Absent or empty keeps the stored secret (the form never sees it).
   */
  secret: Type.Optional(Type.String({ maxLength: 1024, description: '密钥' })),
});
export type SetDnsProviderBody = Static<typeof SetDnsProviderBody>;

export const CertificateStatus = Type.Union([
  Type.Literal('ok'),
  Type.Literal('expired'),
  Type.Literal('mismatch'),
  Type.Literal('invalid'),
  /** an ACME certificate not issued yet (no folder) */
  Type.Literal('missing'),
]);
export type CertificateStatus = Static<typeof CertificateStatus>;
/** The ACME side of a certificate the server issues itself (ACME_EMAIL set). */
export const AcmeStatus = Type.Object({
  /** valid: issued and not due · renewing: an order is in flight · failed: the last attempt failed
   * (retried with backoff) · pending: not issued yet */
  state: Type.Union([
    Type.Literal('valid'),
    Type.Literal('renewing'),
    Type.Literal('failed'),
    Type.Literal('pending'),
  ]),
  hostnames: Type.Array(Type.String()),
  challenge: Type.Union([Type.Literal('http-01'), Type.Literal('dns-01')]),
  lastAttemptAt: Type.Union([Time, Type.Null()]),
  lastSuccessAt: Type.Union([Time, Type.Null()]),
  /** why the last attempt failed, in the caller's language; null after a success */
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** when the next automatic attempt is due (30 days before expiry, or the retry after a failure) */
  nextRenewalAt: Type.Union([Time, Type.Null()]),
});
export type AcmeStatus = Static<typeof AcmeStatus>;
export const Certificate = Type.Object({
  hostnames: Type.Array(Type.String()),
  /** null when the file could not be read as a certificate */
  notAfter: Type.Union([Time, Type.Null()]),
  /** ok: served · expired · mismatch (the key does not belong to the certificate) · invalid: unreadable */
  status: Type.Optional(CertificateStatus),
  /** the folder under DATA_DIR/certs */
  directory: Type.Optional(Type.String()),
  notBefore: Type.Optional(Type.Union([Time, Type.Null()])),
  issuer: Type.Optional(Type.String()),
  /** what is wrong, in the caller's language, when status is not ok */
  detail: Type.Optional(Type.String()),
  /** acme: issued and renewed by the server (ACME_EMAIL) · manual: put there by the operator */
  source: Type.Optional(Type.Union([Type.Literal('acme'), Type.Literal('manual')])),
  /** the ACME state of the managed certificate (source acme only) */
  acme: Type.Optional(AcmeStatus),
});
export type Certificate = Static<typeof Certificate>;
export const CertificatesData = Type.Object({ certificates: Type.Array(Certificate) });
export type CertificatesData = Static<typeof CertificatesData>;
