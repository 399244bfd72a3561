import type { DomainDnsProviderRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/** The domain's DNS provider, or undefined when it has none. */
export async function findDnsProviderOfDomain(
  db: Queryable,
  domainId: number,
): Promise<DomainDnsProviderRow | undefined> {
  return db
    .selectFrom('domain_dns_providers')
    .selectAll()
    .where('domain_id', '=', domainId)
    .executeTakeFirst();
}

export async function insertDnsProvider(db: Queryable, values: DomainDnsProviderRow): Promise<void> {
  await db.insertInto('domain_dns_providers').values(values).execute();
}

export async function updateDnsProviderOfDomain(
  db: Queryable,
  domainId: number,
  values: Omit<DomainDnsProviderRow, 'domain_id'>,
): Promise<void> {
  await db.updateTable('domain_dns_providers').set(values).where('domain_id', '=', domainId).execute();
}

export async function deleteDnsProviderOfDomain(db: Queryable, domainId: number): Promise<void> {
  await db.deleteFrom('domain_dns_providers').where('domain_id', '=', domainId).execute();
}
