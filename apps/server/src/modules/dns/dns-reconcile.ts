import { unquoteTxt } from './cloudflare-client.js';
import { type ApiRecord, bareName, type DnsApiClient, type WantedApiRecord } from './dns-api.js';

export interface WantedWithKind extends WantedApiRecord {
  kind: 'MX' | 'SPF' | 'DKIM' | 'DMARC';
}

export interface ReconcileResult {
  created: number;
  updated: number;
  deleted: number;
}

const isSpf = (text: string) => /^v=spf1(\s|$)/i.test(text.trim());

function same(found: ApiRecord, wanted: WantedApiRecord): boolean {
  if (wanted.type === 'MX') {
    return (
      bareName(found.value) === bareName(wanted.value) && (found.priority ?? 0) === (wanted.priority ?? 0)
    );
  }
  return unquoteTxt(found.value) === wanted.value;
}

/**
 * Makes the provider's zone hold the wanted records, touching nothing that is already right (a
 * second run changes nothing). MX, DKIM and DMARC replace the whole record set of their name and
 * type (one MX host; RFC 7489 section 6.6.3: several DMARC records are all ignored); SPF replaces
 * only the `v=spf1` TXT records at the apex (RFC 7208 section 4.5 allows one), so other TXT records
 * there, such as site verifications, stay.
 */
export async function reconcileRecords(
  client: DnsApiClient,
  wanted: readonly WantedWithKind[],
): Promise<ReconcileResult> {
  const result: ReconcileResult = { created: 0, updated: 0, deleted: 0 };
  for (const record of wanted) {
    const existing = await client.list(record.name, record.type);
    const candidates =
      record.kind === 'SPF' ? existing.filter((found) => isSpf(unquoteTxt(found.value))) : existing;
    const match = candidates.find((found) => same(found, record));
    const reuse = match ?? candidates[0];
    if (!reuse) {
      await client.create(record);
      result.created++;
    } else if (!match) {
      await client.update(reuse.id, record);
      result.updated++;
    }
    for (const other of candidates) {
      if (other === reuse) continue;
      await client.delete(other.id);
      result.deleted++;
    }
  }
  return result;
}

/**
 * Makes the TXT records at `name` exactly `values` (an empty list removes them all), touching only
 * what differs. For callers that publish TXT records of their own through a domain's API provider,
 * such as an ACME DNS-01 challenge (`_acme-challenge.<domain>`, RFC 8555 section 8.4).
 */
export async function setTxtRecords(
  client: DnsApiClient,
  name: string,
  values: readonly string[],
  ttl: number,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { created: 0, updated: 0, deleted: 0 };
  const existing = await client.list(name, 'TXT');
  const missing = values.filter((value) => !existing.some((found) => unquoteTxt(found.value) === value));
  const extra = existing.filter((found) => !values.includes(unquoteTxt(found.value)));
  for (const value of missing) {
    const reuse = extra.shift();
    if (reuse) {
      await client.update(reuse.id, { name, type: 'TXT', value, ttl });
      result.updated++;
    } else {
      await client.create({ name, type: 'TXT', value, ttl });
      result.created++;
    }
  }
  for (const other of extra) {
    await client.delete(other.id);
    result.deleted++;
  }
  return result;
}
