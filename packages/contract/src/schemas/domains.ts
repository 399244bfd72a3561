import { type Static, Type } from '@sinclair/typebox';
import { Id, Time } from './common.js';

export const DnsStatus = Type.Union([
  Type.Literal('unchecked'),
  Type.Literal('ok'),
  Type.Literal('partial'),
  Type.Literal('failed'),
]);
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
});
export type AddDomainBody = Static<typeof AddDomainBody>;
export const EditDomainBody = Type.Object({
  id: Id,
  publicRegistration: Type.Optional(Type.Boolean()),
  forSale: Type.Optional(Type.Boolean()),
  price: Type.Optional(Price),
});
export type EditDomainBody = Static<typeof EditDomainBody>;
export const DelDomainBody = Type.Object({ id: Id, force: Type.Optional(Type.Boolean()) });
export type DelDomainBody = Static<typeof DelDomainBody>;

export const DnsRecord = Type.Object({ name: Type.String(), type: Type.String(), value: Type.String() });
export const DkimData = Type.Object({ selector: Type.String(), publicKey: Type.String(), record: DnsRecord });
export type DkimData = Static<typeof DkimData>;

export const DnsCheckStatus = Type.Union([
  Type.Literal('ok'),
  Type.Literal('missing'),
  Type.Literal('wrong'),
]);
export const DnsCheckRecord = Type.Object({
  type: Type.String(),
  name: Type.String(),
  expected: Type.String(),
  found: Type.Array(Type.String()),
  status: DnsCheckStatus,
  detail: Type.Optional(Type.String()),
});
export type DnsCheckRecord = Static<typeof DnsCheckRecord>;
export const DnsRecordsData = Type.Object({ records: Type.Array(DnsCheckRecord) });

export const Certificate = Type.Object({
  hostnames: Type.Array(Type.String()),
  notAfter: Time,
  status: Type.Optional(Type.String()),
});
export const CertificatesData = Type.Object({ certificates: Type.Array(Certificate) });
