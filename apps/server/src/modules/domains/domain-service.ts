import type { AddDomainBody, Domain, EditDomainBody } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Database, DomainRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { toIso } from '../../lib/time.js';
import { generateDkimKey } from '../dkim/dkim-keys.js';
import { storeDkimKey } from '../dkim/dkim-service.js';
import { remainingStock } from '../email-accounts/mailbox-store.js';
import type { AuthContext } from '../sessions/session-service.js';
import { displayDomainName, normalizeDomainName } from './domain-name.js';

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
  };
}

export function createDomainService(db: Kysely<Database>) {
  /** Loads a domain the caller may manage: its owner, or any administrator. */
  async function owned(auth: AuthContext, id: number): Promise<DomainRow> {
    const row = await db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
    // Another user's domain answers exactly like a missing one, so ids reveal nothing.
    if (!row || (auth.role !== 'admin' && row.owner_id !== auth.accountId)) {
      throw ApiError.notFound('域名不存在');
    }
    return row;
  }

  return {
    owned,

    async list(auth: AuthContext): Promise<Domain[]> {
      let query = db.selectFrom('domains').selectAll().orderBy('id');
      if (auth.role !== 'admin') query = query.where('owner_id', '=', auth.accountId ?? -1);
      return (await query.execute()).map(domainView);
    },

    async add(auth: AuthContext, input: AddDomainBody): Promise<Domain> {
      const name = normalizeDomainName(input.name);
      if (!name) {
        throw ApiError.badRequest('域名格式不正确，请填写如 mail.example.com 的完整域名（支持中文域名）');
      }
      const ownerId = auth.accountId;
      if (ownerId === null) throw ApiError.forbidden();
      // Generated before the transaction (it takes a moment, off the event loop) so the domain and
      // its DKIM key appear together.
      const dkimKey = await generateDkimKey('rsa');
      return db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('domains')
          .select('id')
          .where('name', '=', name)
          .executeTakeFirst();
        if (existing) throw ApiError.conflict(`域名 ${name} 已被添加，不能重复添加`);
        const account = await trx
          .selectFrom('system_accounts')
          .select('max_domains')
          .where('id', '=', ownerId)
          .executeTakeFirstOrThrow();
        if (account.max_domains > 0) {
          const { count } = await trx
            .selectFrom('domains')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('owner_id', '=', ownerId)
            .executeTakeFirstOrThrow();
          if (Number(count) >= account.max_domains) {
            throw ApiError.forbidden(`已达到域名数量上限（${account.max_domains} 个），请联系管理员调整`);
          }
        }
        const row = await trx
          .insertInto('domains')
          .values({
            name,
            owner_id: ownerId,
            public_registration: input.publicRegistration ? 1 : 0,
            for_sale: input.forSale ? 1 : 0,
            price: input.price ?? 0,
            created_at: Date.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        row.dkim_selector = await storeDkimKey(trx, row.id, dkimKey);
        return domainView(row);
      });
    },

    async edit(auth: AuthContext, input: EditDomainBody): Promise<Domain> {
      await owned(auth, input.id);
      const changes: Record<string, number> = {};
      if (input.publicRegistration !== undefined)
        changes.public_registration = input.publicRegistration ? 1 : 0;
      if (input.forSale !== undefined) changes.for_sale = input.forSale ? 1 : 0;
      if (input.price !== undefined) changes.price = input.price;
      if (Object.keys(changes).length > 0) {
        await db.updateTable('domains').set(changes).where('id', '=', input.id).execute();
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
        const { count } = await trx
          .selectFrom('mailboxes')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('domain_id', '=', id)
          .executeTakeFirstOrThrow();
        if (Number(count) > 0 && !force) {
          throw ApiError.conflict(
            `域名 ${domain.name} 下还有 ${count} 个邮箱，删除域名会同时删除这些邮箱及其全部邮件。确认无误请勾选“强制删除”后重试`,
          );
        }
        const mailboxIds = trx.selectFrom('mailboxes').select('id').where('domain_id', '=', id);
        await trx
          .updateTable('sessions')
          .set({ revoked_at: Date.now() })
          .where('subject_kind', '=', 'mailbox')
          .where('subject_id', 'in', mailboxIds)
          .execute();
        await trx.deleteFrom('mailboxes').where('domain_id', '=', id).execute();
        await trx.deleteFrom('domains').where('id', '=', id).execute();
      });
    },

    /** Domains open for free registration (getArrDomains). */
    async openForRegistration(): Promise<{ id: number; name: string }[]> {
      return db
        .selectFrom('domains')
        .select(['id', 'name'])
        .where('public_registration', '=', 1)
        .orderBy('name')
        .execute();
    },

    /** Domains whose mailboxes are for sale (getAdminDomains), with what their owner can still sell. */
    async forSale(): Promise<{ id: number; name: string; price: number; stock: number | null }[]> {
      const rows = await db
        .selectFrom('domains')
        .select(['id', 'name', 'price', 'owner_id'])
        .where('for_sale', '=', 1)
        .orderBy('name')
        .execute();
      const stocks = new Map<number, number | null>();
      for (const ownerId of new Set(rows.map((row) => row.owner_id))) {
        stocks.set(ownerId, await remainingStock(db, ownerId));
      }
      return rows.map(({ owner_id, ...row }) => ({ ...row, stock: stocks.get(owner_id) ?? null }));
    },
  };
}

export type DomainService = ReturnType<typeof createDomainService>;
