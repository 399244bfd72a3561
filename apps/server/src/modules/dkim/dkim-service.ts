import type { DkimAlgorithm, DkimData, DkimKey } from '@youju/contract';
import type { Kysely } from 'kysely';
import {
  deleteRetiredDkimKeys,
  hasDkimKeyOfAlgorithm,
  insertDkimKey,
  listActiveDkimKeysOfDomain,
  listDkimKeysOfDomain,
  listDkimSelectorsOfDomain,
  retireDkimKeys,
} from '../../db/repositories/dkim-key-repo.js';
import { findDomainIdentityByName, setDomainDkimSelector } from '../../db/repositories/domain-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import type { Database, DomainDkimKeyRow, DomainRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { toIso } from '../../lib/time.js';
import type { AuthContext } from '../sessions/index.js';
import { dkimRecord, type GeneratedDkimKey, generateDkimKey, nextSelector } from './dkim-keys.js';

/** What the outbound queue signs with: an active key of the sender's domain. */
export interface SigningKey {
  domain: string;
  selector: string;
  algorithm: DkimAlgorithm;
  /** PKCS#8 PEM */
  privateKey: string;
}

/**
 * The domains module's ownership check, handed in by services.ts (the domains module gives every
 * new domain its key through `storeDkimKey`, so this module does not import it back).
 */
export interface OwnedDomains {
  /** The domain if the caller may manage it; otherwise 404. */
  owned(auth: AuthContext, id: number): Promise<Pick<DomainRow, 'id' | 'name'>>;
}

function keyView(domain: string, row: DomainDkimKeyRow): DkimKey {
  return {
    selector: row.selector,
    algorithm: row.algorithm,
    active: row.active === 1,
    publicKey: row.public_key,
    record: dkimRecord(row.selector, domain, row.algorithm, row.public_key),
    createdAt: toIso(row.created_at),
  };
}

/** Stores `key` as the active key of its algorithm; earlier keys of that algorithm retire. */
export async function storeDkimKey(db: Queryable, domainId: number, key: GeneratedDkimKey): Promise<string> {
  const selector = nextSelector(key.algorithm, await listDkimSelectorsOfDomain(db, domainId));
  await retireDkimKeys(db, domainId, key.algorithm);
  await insertDkimKey(db, {
    domain_id: domainId,
    selector,
    algorithm: key.algorithm,
    private_key: key.privateKey,
    public_key: key.publicKey,
    active: 1,
    created_at: Date.now(),
  });
  // domains.dkim_selector (getDomains' dkimSelector) names the signing key.
  if (key.algorithm === 'rsa') await setDomainDkimSelector(db, domainId, selector);
  return selector;
}

/**
 * DKIM keys per domain (RFC 6376). Every domain gets an RSA 2048 key when it is added. A rotation
 * adds a key under a new selector and makes it the signing key; the old one stays published (mail
 * already sent must still verify while it is in transit or in a mailbox being checked) until the
 * owner removes it.
 */
export function createDkimService(db: Kysely<Database>, domains: OwnedDomains) {
  /** Domains added before keys were kept here get one on first use. */
  async function ensureKey(domainId: number): Promise<void> {
    if (await hasDkimKeyOfAlgorithm(db, domainId, 'rsa')) return;
    const key = await generateDkimKey('rsa');
    await db.transaction().execute(async (trx) => {
      if (!(await hasDkimKeyOfAlgorithm(trx, domainId, 'rsa'))) await storeDkimKey(trx, domainId, key);
    });
  }

  async function dkimData(domainId: number, domainName: string): Promise<DkimData> {
    const rows = await listDkimKeysOfDomain(db, domainId);
    const keys = rows.map((row) => keyView(domainName, row));
    const signing = keys.find((key) => key.active && key.algorithm === 'rsa') ?? keys[0];
    if (!signing) throw ApiError.notFound('该域名还没有 DKIM 密钥');
    return { selector: signing.selector, publicKey: signing.publicKey, record: signing.record, keys };
  }

  return {
    /** Generates a key for a domain being added; call before its transaction, then `store` inside. */
    generate: generateDkimKey,
    store: storeDkimKey,

    /** getDkim: the signing key's selector, public key and TXT record, plus every published key. */
    async get(auth: AuthContext, domainId: number): Promise<DkimData> {
      const domain = await domains.owned(auth, domainId);
      await ensureKey(domain.id);
      return dkimData(domain.id, domain.name);
    },

    /** rotateDkim: a new key under a new selector signs from now on; the old one stays published. */
    async rotate(auth: AuthContext, domainId: number, algorithm: DkimAlgorithm = 'rsa'): Promise<DkimData> {
      const domain = await domains.owned(auth, domainId);
      const key = await generateDkimKey(algorithm);
      await db.transaction().execute((trx) => storeDkimKey(trx, domain.id, key));
      return dkimData(domain.id, domain.name);
    },

    /** removeDkimKey: unpublishes a retired key (or all retired keys); the signing key cannot go. */
    async removeRetired(auth: AuthContext, domainId: number, selector?: string): Promise<DkimData> {
      const domain = await domains.owned(auth, domainId);
      if (selector !== undefined) {
        const row = (await listDkimKeysOfDomain(db, domain.id)).find((key) => key.selector === selector);
        if (!row) throw ApiError.notFound(`选择器 ${selector} 不存在`);
        if (row.active === 1) {
          throw ApiError.conflict(`选择器 ${selector} 是正在使用的签名密钥，不能删除；请先轮换到新密钥`);
        }
      }
      await deleteRetiredDkimKeys(db, domain.id, selector);
      return dkimData(domain.id, domain.name);
    },

    /** Published keys of a domain (for checkDNS and setDNS), signing key first. */
    async published(domainId: number, domainName: string): Promise<DkimKey[]> {
      await ensureKey(domainId);
      const keys = (await listDkimKeysOfDomain(db, domainId)).map((row) => keyView(domainName, row));
      return keys.sort((a, b) => Number(b.active) - Number(a.active));
    },

    /**
     * The keys outgoing mail from `domainName` is signed with (RFC 6376 section 5): the active RSA
     * key, then the active ed25519 key if the domain has one (RFC 8463 asks signers to keep RSA
     * beside it); empty when the domain is not ours.
     */
    async signingKeysFor(domainName: string): Promise<SigningKey[]> {
      const domain = await findDomainIdentityByName(db, domainName.trim().toLowerCase().replace(/\.$/, ''));
      if (!domain) return [];
      await ensureKey(domain.id);
      const rows = await listActiveDkimKeysOfDomain(db, domain.id);
      return rows.map((row) => ({
        domain: domain.name,
        selector: row.selector,
        algorithm: row.algorithm,
        privateKey: row.private_key,
      }));
    },
  };
}

export type DkimService = ReturnType<typeof createDkimService>;
