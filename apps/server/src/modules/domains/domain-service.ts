import { randomBytes } from 'node:crypto';
import type { AddDomainBody, Domain, EditDomainBody } from '@youju/contract';
import type { Kysely } from 'kysely';
import { getPublicSuffix } from 'tldts';
import type { Engine } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import {
  activatePendingDomain,
  countDomainsOfOwner,
  deleteDomain,
  deleteLapsedClaims,
  domainNameExists,
  findDomainById,
  findOverlappingDomainOfOthers,
  insertDomain,
  listDomains,
  listDomainsForSale,
  listDomainsOpenForRegistration,
  updateDomainOffer,
} from '../../db/repositories/domain-repo.js';
import { countMailboxesOnDomain, deleteMailboxesOnDomain } from '../../db/repositories/mailbox-repo.js';
import { revokeAllSessionsOfMailboxesOnDomain } from '../../db/repositories/session-repo.js';
import { getSystemAccountById } from '../../db/repositories/system-account-repo.js';
import type { Database, DomainRow, DomainUpdate } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { toIso } from '../../lib/time.js';
import { generateDkimKey, storeDkimKey } from '../dkim/index.js';
import type { AuthContext } from '../sessions/index.js';
import { managedScope, mayManage } from '../sessions/index.js';
import { displayDomainName, normalizeDomainName } from './domain-name.js';

/** The TXT record that proves control of `name`; verifyDomain makes a pending domain active. */
export function verificationRecord(name: string, token: string) {
  return { name: `_youju.${name}`, type: 'TXT' as const, value: `youju-verify=${token}` };
}

export function domainView(row: DomainRow): Domain {
  return {
    id: row.id,
    name: row.name,
    displayName: displayDomainName(row.name),
    publicRegistration: row.public_registration === 1,
    forSale: row.for_sale === 1,
    price: row.price,
    dkimSelector: row.dkim_selector,
    dnsStatus: row.dns_status as Domain['dnsStatus'],
    ownerId: row.owner_id,
    createdAt: toIso(row.created_at),
    status: row.status,
    ...(row.status === 'pending' && row.verification_token
      ? { verification: verificationRecord(row.name, row.verification_token) }
      : {}),
  };
}

/** How long an unproven claim holds a name against other accounts. */
const PENDING_CLAIM_MS = 7 * 24 * 3_600_000;

/** What a TXT look-up of the verification name found (through DNS_SERVERS, as checkDNS does). */
export type TxtLookup = (name: string) => Promise<{ values: string[] } | { error: string }>;

export interface DomainServiceOptions {
  engine: Engine;
  /** MAIL_HOSTNAME: neither it nor a name under it can be a user's domain */
  mailHostname: string;
  txtLookup: TxtLookup;
  /** verifyDomain makes the server send DNS queries: bounded per account */
  rateLimits: RateLimits;
  /** Mailboxes an owner can still sell, null = unlimited (the email-accounts module's mailbox limit). */
  remainingStock(ownerId: number): Promise<number | null>;
}

/** verifyDomain calls per account per hour. */
const VERIFICATIONS_PER_HOUR = 60;

/** Whether `name` is `other` or lies under it (`a.b.example` is under `b.example`). */
function isAtOrUnder(name: string, other: string): boolean {
  return name === other || name.endsWith(`.${other}`);
}

/**
 * Why a system user may not claim `name`, or null. A public suffix (`com`, `co.uk`, `github.io`:
 * the Public Suffix List with its private section) would capture every domain under it; the
 * server's own host name is where its own mail lives.
 */
function unclaimableReason(name: string, mailHostname: string): string | null {
  if (getPublicSuffix(name, { allowPrivateDomains: true }) === name) {
    return `${name} 是公共后缀（如 com、co.uk、github.io），不能作为邮件域名，请填写你自己注册的域名`;
  }
  const host = mailHostname.toLowerCase().replace(/\.$/, '');
  if (isAtOrUnder(name, host)) {
    return `${name} 是本站邮件服务器自身的主机名（或其子域名），不能添加`;
  }
  return null;
}

/** What a domain offers visitors: free registration, sale, and the price (fen) of a sale. */
interface Offer {
  publicRegistration: boolean;
  forSale: boolean;
  price: number;
}

/**
 * The store must say what it means: a domain for sale has a real price (never a silent ¥0), and a
 * domain anyone may register on for free is sold only when the owner confirmed it
 * (`confirmFreeAndSale`: buying then gets nothing free registration does not, though cards and a
 * chosen password may still be reasons; the store shows such a domain as also free). Checked on the
 * state a request would leave, on add and on edit; the contract's `Price` already refuses negative,
 * fractional and huge prices with 400.
 */
export function refuseUnclearOffer(offer: Offer, confirmedFreeAndSale: boolean): void {
  if (!offer.forSale) return;
  if (!Number.isInteger(offer.price) || offer.price <= 0) {
    throw ApiError.badRequest('价格：出售邮箱必须设置大于 0 的价格（单位：分，如 1000 表示 ¥10.00）');
  }
  if (offer.publicRegistration && !confirmedFreeAndSale) {
    throw ApiError.badRequest(
      '出售：该域名同时允许免费注册，购买将没有意义；请关闭“开放注册”或取消出售，确需同时开启请勾选确认（confirmFreeAndSale）',
    );
  }
}

export function createDomainService(db: Kysely<Database>, options: DomainServiceOptions) {
  const verifications = options.rateLimits('domain-verifications', 3_600_000);
  /** Loads a domain the caller may manage: its owner, or any administrator. */
  async function owned(auth: AuthContext, id: number): Promise<DomainRow> {
    const row = await findDomainById(db, id);
    // Another user's domain answers exactly like a missing one, so ids reveal nothing.
    if (!row || !mayManage(auth, row.owner_id)) {
      throw ApiError.notFound('域名不存在');
    }
    return row;
  }

  return {
    owned,

    async list(auth: AuthContext): Promise<Domain[]> {
      return (await listDomains(db, managedScope(auth))).map(domainView);
    },

    /**
     * addDomain. An administrator's domain is active at once; a user's starts `pending` with a TXT
     * challenge and is refused outright when it is a public suffix, the server's host name (or under
     * it), or equal to, under or above a domain another account holds: otherwise outbound mail of
     * other users to that domain would be delivered locally, into the claimant's mailboxes.
     */
    async add(auth: AuthContext, input: AddDomainBody): Promise<Domain> {
      const name = normalizeDomainName(input.name);
      if (!name) {
        throw ApiError.badRequest('域名格式不正确，请填写如 mail.example.com 的完整域名（支持中文域名）');
      }
      const ownerId = auth.accountId;
      if (ownerId === null) throw ApiError.forbidden();
      refuseUnclearOffer(
        {
          publicRegistration: input.publicRegistration === true,
          forSale: input.forSale === true,
          price: input.price ?? 0,
        },
        input.confirmFreeAndSale === true,
      );
      const isAdmin = auth.role === 'admin';
      if (!isAdmin) {
        const reason = unclaimableReason(name, options.mailHostname);
        if (reason) throw ApiError.forbidden(reason);
      }
      // Generated before the transaction (it takes a moment, off the event loop) so the domain and
      // its DKIM key appear together.
      const dkimKey = await generateDkimKey('rsa');
      return db.transaction().execute(async (trx) => {
        // The overlap check and the insert are one step: two accounts adding `a.example` and
        // `b.a.example` at once must not both succeed. SQLite runs one transaction at a time on its
        // one connection; PostgreSQL serialises additions with a transaction-scoped advisory lock.
        await lockForTransaction(trx, options.engine, 'youju:add-domain');
        const labels = name.split('.');
        const above = labels.slice(1).map((_, index) => labels.slice(index + 1).join('.'));
        // A claim another account never proved lapses after PENDING_CLAIM_MS, so a squatter who
        // adds someone's domain cannot keep its real owner out for ever. (Nothing hangs on a pending
        // domain: it has no mailboxes, and its DKIM keys and DNS settings go with it.)
        await deleteLapsedClaims(trx, { name, above, ownerId, claimedBefore: Date.now() - PENDING_CLAIM_MS });
        if (await domainNameExists(trx, name)) throw ApiError.conflict(`域名 ${name} 已被添加，不能重复添加`);
        if (!isAdmin) {
          const overlapping = await findOverlappingDomainOfOthers(trx, { name, above, ownerId });
          if (overlapping) {
            throw ApiError.conflict(
              `${name} 与其他账号的域名 ${overlapping} 重叠（上级或下级域名），不能添加；如确属于你，请联系管理员`,
            );
          }
        }
        const account = await getSystemAccountById(trx, ownerId);
        if (account.max_domains > 0) {
          const count = await countDomainsOfOwner(trx, ownerId);
          if (count >= account.max_domains) {
            throw ApiError.forbidden(`已达到域名数量上限（${account.max_domains} 个），请联系管理员调整`);
          }
        }
        const row = await insertDomain(trx, {
          name,
          owner_id: ownerId,
          public_registration: input.publicRegistration ? 1 : 0,
          for_sale: input.forSale ? 1 : 0,
          price: input.price ?? 0,
          created_at: Date.now(),
          status: isAdmin ? 'active' : 'pending',
          verification_token: isAdmin ? null : randomBytes(16).toString('hex'),
        });
        row.dkim_selector = await storeDkimKey(trx, row.id, dkimKey);
        return domainView(row);
      });
    },

    /**
     * verifyDomain: a pending domain becomes active when `_youju.<domain>` has a TXT record with its
     * token; otherwise 409 saying what was found.
     */
    async verify(auth: AuthContext, id: number): Promise<Domain> {
      const domain = await owned(auth, id);
      if (domain.status === 'active' || !domain.verification_token) return domainView(domain);
      if ((await verifications.hit(String(auth.accountId))) > VERIFICATIONS_PER_HOUR) {
        throw ApiError.tooMany(
          `验证过于频繁：每小时最多验证 ${VERIFICATIONS_PER_HOUR} 次，DNS 记录生效后再试`,
          600,
        );
      }
      const record = verificationRecord(domain.name, domain.verification_token);
      const answer = await options.txtLookup(record.name);
      if ('error' in answer) {
        throw ApiError.conflict(`暂时无法查询 ${record.name} 的 TXT 记录：${answer.error}，请稍后再试`);
      }
      if (!answer.values.includes(record.value)) {
        const found =
          answer.values.length === 0
            ? `未找到 ${record.name} 的 TXT 记录`
            : `${record.name} 的 TXT 记录为 ${answer.values.map((value) => `“${value.slice(0, 100)}”`).join('、')}`;
        throw ApiError.conflict(
          `${found}，应为“${record.value}”。请在域名的 DNS 中添加这条记录，生效后（通常几分钟）再点击验证`,
        );
      }
      await activatePendingDomain(db, id);
      return domainView(await owned(auth, id));
    },

    async edit(auth: AuthContext, input: EditDomainBody): Promise<Domain> {
      const current = await owned(auth, input.id);
      refuseUnclearOffer(
        {
          publicRegistration: input.publicRegistration ?? current.public_registration === 1,
          forSale: input.forSale ?? current.for_sale === 1,
          price: input.price ?? current.price,
        },
        // A request that touches neither switch leaves an earlier, confirmed combination alone.
        input.confirmFreeAndSale === true ||
          (input.publicRegistration === undefined && input.forSale === undefined),
      );
      const changes: Pick<DomainUpdate, 'public_registration' | 'for_sale' | 'price'> = {};
      if (input.publicRegistration !== undefined)
        changes.public_registration = input.publicRegistration ? 1 : 0;
      if (input.forSale !== undefined) changes.for_sale = input.forSale ? 1 : 0;
      if (input.price !== undefined) changes.price = input.price;
      if (Object.keys(changes).length > 0) {
        await updateDomainOffer(db, input.id, changes);
      }
      return domainView(await owned(auth, input.id));
    },

    /**
     * Deleting a domain that still has mailboxes needs `force`; then its mailboxes (and, through
     * them, their mail) go in the same transaction, so nothing is left orphaned.
     */
    async remove(auth: AuthContext, id: number, force: boolean): Promise<void> {
      const domain = await owned(auth, id);
      await db.transaction().execute(async (trx) => {
        const count = await countMailboxesOnDomain(trx, id);
        if (count > 0 && !force) {
          throw ApiError.conflict(
            `域名 ${domain.name} 下还有 ${count} 个邮箱，删除域名会同时删除这些邮箱及其全部邮件。确认无误请勾选“强制删除”后重试`,
          );
        }
        await revokeAllSessionsOfMailboxesOnDomain(trx, id, Date.now());
        await deleteMailboxesOnDomain(trx, id);
        await deleteDomain(trx, id);
      });
    },

    /** Domains open for free registration (getArrDomains). */
    async openForRegistration(): Promise<{ id: number; name: string }[]> {
      return listDomainsOpenForRegistration(db);
    },

    /** Domains whose mailboxes are for sale (getAdminDomains), with what their owner can still sell. */
    async forSale(): Promise<{ id: number; name: string; price: number; stock: number | null }[]> {
      const rows = await listDomainsForSale(db);
      const stocks = new Map<number, number | null>();
      for (const ownerId of new Set(rows.map((row) => row.owner_id))) {
        stocks.set(ownerId, await options.remainingStock(ownerId));
      }
      return rows.map(({ owner_id, public_registration, ...row }) => ({
        ...row,
        stock: stocks.get(owner_id) ?? null,
        ...(public_registration === 1 ? { freeRegistration: true } : {}),
      }));
    },
  };
}

export type DomainService = ReturnType<typeof createDomainService>;
