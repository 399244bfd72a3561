import { randomBytes } from 'node:crypto';
import type {
  Card,
  CardBatch,
  CardQuery,
  CreateCardBody,
  CreateCardData,
  EditCardBody,
  ExportCardQuery,
  PageOf,
  VerCardBody,
  VerCardData,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import {
  type CardWithDomainRow,
  countCards,
  countCardsInScope,
  deleteCards,
  findCardByCodeHash,
  findCardInScope,
  insertCards,
  listCardBatches,
  listCards,
  listCardsOfBatch,
  markCardUsedIfUnused,
  updateCardNoteOrStatus,
} from '../../db/repositories/card-repo.js';
import { findDomainById, type OwnerScope } from '../../db/repositories/domain-repo.js';
import { findMailboxByAddress, setMailboxExpiryAndQuota } from '../../db/repositories/mailbox-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import { findSystemAccountById } from '../../db/repositories/system-account-repo.js';
import type { CardRow, Database, DomainRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { toCsv } from '../../lib/csv.js';
import { pageOf } from '../../lib/paging.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { DAY, toIso } from '../../lib/time.js';
import { createSignUpLimit } from '../auth/index.js';
import type { DomainService } from '../domains/index.js';
import { displayDomainName, refusePendingDomain, refuseReservedLocalPart } from '../domains/index.js';
import {
  addressTakenReason,
  ensureMailboxLimit,
  formatCsvTime,
  formatMegabytes,
  insertAccount,
} from '../email-accounts/index.js';
import type { AuthContext, ClientInfo } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';
import { cardCodeHash, newCardCode, normalizeCardCode, sameCardCode } from './card-code.js';

/** Wrong codes (and wrong mailbox passwords while extending) allowed per IP in the window. */
const WRONG_WINDOW_MS = 15 * 60_000;
const MAX_WRONG_PER_IP = 10;
/** wrong passwords of one existing mailbox from one address, when a card would extend it */
const MAX_PASSWORD_GUESSES = 5;
const WRONG_CODE = '卡密不正确，请检查后重新输入';
const CARD_USED = '该卡密已被使用，每个卡密只能兑换一次';
const CHINA_OFFSET_MINUTES = 480;

type Domain = DomainRow;

const statusLabels: Record<CardRow['status'], string> = {
  unused: '未使用',
  used: '已使用',
  disabled: '已停用',
};

function cardView(row: CardWithDomainRow): Card {
  return {
    id: row.id,
    code: row.code,
    domainId: row.domain_id,
    validDays: row.valid_days,
    quotaBytes: row.quota_bytes,
    status: row.status,
    usedBy: row.used_by,
    usedAt: toIso(row.used_at),
    note: row.note,
    createdAt: toIso(row.created_at),
    batchId: row.batch_id,
    domainName: row.domain_name ? displayDomainName(row.domain_name) : null,
  };
}

/** A batch id people can read: the creation time and a random tail (`20260301-140501-a1b2`). */
function newBatchId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp.slice(0, 8)}-${stamp.slice(8)}-${randomBytes(2).toString('hex')}`;
}

export function createCardService(deps: {
  db: Kysely<Database>;
  engine: Engine;
  domains: DomainService;
  settings: SettingsService;
  rateLimits: RateLimits;
}) {
  const { db, engine, domains, settings, rateLimits } = deps;
  const wrongAttempts = rateLimits('wrong-card-codes', WRONG_WINDOW_MS);
  const passwordGuesses = rateLimits('card-password-guesses', WRONG_WINDOW_MS);
  const signUpLimit = createSignUpLimit(rateLimits, settings);

  /** Administrators reach every card, users the cards they made. */
  function scopeOf(auth: AuthContext): OwnerScope {
    return auth.role === 'admin' ? { kind: 'all' } : { kind: 'owner', ownerId: auth.accountId ?? -1 };
  }

  async function owned(auth: AuthContext, id: number) {
    const row = await findCardInScope(db, scopeOf(auth), id);
    if (!row) throw ApiError.notFound('卡密不存在');
    return row;
  }

  /** Counts a wrong code (or password) against the IP; the caller throws what this returns. */
  async function refuseWrong(ip: string, message: string): Promise<ApiError> {
    await wrongAttempts.hit(ip);
    return ApiError.badRequest(message);
  }

  /** The domain a card redeems on: its own, or (a card without one) an open domain in its scope. */
  async function redemptionDomain(card: CardRow, requested: number | undefined): Promise<Domain> {
    if (card.domain_id !== null) {
      const domain = await findDomainById(db, card.domain_id);
      if (!domain) throw ApiError.notFound('该卡密对应的域名已不存在，请联系卖家');
      if (requested !== undefined && requested !== domain.id) {
        throw ApiError.badRequest(`该卡密只能兑换 ${displayDomainName(domain.name)} 的邮箱`);
      }
      return domain;
    }
    if (requested === undefined) throw ApiError.badRequest('该卡密可用于任一开放域名，请选择域名');
    const domain = await findDomainById(db, requested);
    const creator = await findSystemAccountById(db, card.owner_id);
    // An administrator's card opens any open domain; a user's only that user's own open domains.
    const inScope = domain && (creator?.role === 'admin' || domain.owner_id === card.owner_id);
    if (domain?.public_registration !== 1 || !inScope) {
      throw ApiError.notFound('所选域名不能兑换此卡密，请换一个域名');
    }
    return domain;
  }

  return {
    async list(auth: AuthContext, query: CardQuery): Promise<PageOf<Card>> {
      return pageOf(query, async (limit, offset) => {
        const filter = {
          scope: scopeOf(auth),
          status: query.status || undefined,
          batchId: query.batchId || undefined,
        };
        const [rows, total] = await Promise.all([
          listCards(db, filter, { limit, offset }),
          countCards(db, filter),
        ]);
        return { rows: rows.map(cardView), total };
      });
    },

    /** The caller's generation batches, newest first, for export. */
    async batches(auth: AuthContext): Promise<CardBatch[]> {
      const rows = await listCardBatches(db, scopeOf(auth), 200);
      return rows.map((row) => ({
        batchId: row.batch_id,
        count: Number(row.count),
        unused: Number(row.unused ?? 0),
        note: row.note ?? '',
        createdAt: toIso(Number(row.created_at)),
      }));
    },

    async create(auth: AuthContext, input: CreateCardBody): Promise<CreateCardData> {
      const ownerId = auth.accountId;
      if (ownerId === null) throw ApiError.forbidden();
      if (input.domainId !== undefined) refusePendingDomain(await domains.owned(auth, input.domainId));
      const now = Date.now();
      const batchId = newBatchId(now);
      const codes = Array.from({ length: input.count }, () => newCardCode());
      await db.transaction().execute(async (trx) => {
        for (let start = 0; start < codes.length; start += 200) {
          await insertCards(
            trx,
            codes.slice(start, start + 200).map((code) => ({
              code,
              code_hash: cardCodeHash(normalizeCardCode(code) ?? code),
              batch_id: batchId,
              owner_id: ownerId,
              domain_id: input.domainId ?? null,
              valid_days: input.validDays,
              quota_bytes: input.quotaBytes ?? 0,
              status: 'unused' as const,
              note: input.note ?? '',
              created_at: now,
            })),
          );
        }
      });
      return { codes, batchId };
    },

    /** Disables or re-enables an unused card and edits the note; a used card keeps its status. */
    async edit(auth: AuthContext, input: EditCardBody): Promise<Card> {
      const card = await owned(auth, input.id);
      const changes: { status?: 'unused' | 'disabled'; note?: string } = {};
      if (input.note !== undefined) changes.note = input.note;
      if (input.status !== undefined && input.status !== card.status) {
        if (card.status === 'used') throw ApiError.conflict('该卡密已被使用，不能再停用或启用');
        changes.status = input.status;
      }
      if (Object.keys(changes).length > 0) {
        // A status changes only while the card is not used: a redemption that just won keeps it "used".
        if (!(await updateCardNoteOrStatus(db, card.id, changes)))
          throw ApiError.conflict('该卡密刚刚被使用，不能再停用或启用');
      }
      return cardView(await owned(auth, input.id));
    },

    async remove(auth: AuthContext, ids: number[]): Promise<{ deleted: number }> {
      const unique = [...new Set(ids)];
      return db.transaction().execute(async (trx) => {
        if ((await countCardsInScope(trx, scopeOf(auth), unique)) !== unique.length)
          throw ApiError.notFound('所选卡密中有不存在或无权操作的，未做任何删除');
        return { deleted: await deleteCards(trx, unique) };
      });
    },

    /** A batch as a file: CSV with what each code grants, or TXT with one code per line. */
    async exportBatch(
      auth: AuthContext,
      query: ExportCardQuery,
    ): Promise<{ body: string; type: string; extension: string }> {
      const rows = await listCardsOfBatch(db, scopeOf(auth), query.batchId);
      if (rows.length === 0) throw ApiError.notFound('该批次不存在或没有卡密');
      if (query.format === 'txt') {
        return {
          body: `${rows.map((row) => row.code).join('\r\n')}\r\n`,
          type: 'text/plain; charset=utf-8',
          extension: 'txt',
        };
      }
      const offset = query.utcOffsetMinutes ?? CHINA_OFFSET_MINUTES;
      const body = toCsv([
        ['卡密', '域名', '有效天数', '容量(MB)', '状态', '使用者', '备注', '创建时间'],
        ...rows.map((row) => [
          row.code,
          row.domain_name ? displayDomainName(row.domain_name) : '任一开放域名',
          row.valid_days,
          row.quota_bytes > 0 ? formatMegabytes(row.quota_bytes) : '默认',
          statusLabels[row.status],
          row.used_by ?? '',
          row.note,
          formatCsvTime(row.created_at, offset),
        ]),
      ]);
      return { body, type: 'text/csv; charset=utf-8', extension: 'csv' };
    },

    /**
     * verCard: redeems a code for a new mailbox, or to extend an existing one whose password the
     * caller knows. The card turns `used` by a conditional UPDATE (… WHERE status = 'unused') inside
     * the transaction that creates or extends the mailbox; only the request that changed the row
     * goes on, so a code works once however many requests race, on SQLite and PostgreSQL alike.
     */
    async redeem(input: VerCardBody, client: ClientInfo): Promise<VerCardData> {
      return signUpLimit.run(client.ip, () => redeemCard(input, client));
    },
  };

  async function redeemCard(input: VerCardBody, client: ClientInfo): Promise<VerCardData> {
    if ((await wrongAttempts.count(client.ip)) >= MAX_WRONG_PER_IP) {
      throw ApiError.tooMany(
        `卡密输入错误次数过多，请 ${WRONG_WINDOW_MS / 60_000} 分钟后再试`,
        WRONG_WINDOW_MS / 1000,
      );
    }
    const normalized = normalizeCardCode(input.code);
    if (!normalized) throw await refuseWrong(client.ip, WRONG_CODE);
    const card = await findCardByCodeHash(db, cardCodeHash(normalized));
    if (!card || !sameCardCode(card.code, normalized)) throw await refuseWrong(client.ip, WRONG_CODE);
    if (card.status === 'disabled') throw ApiError.forbidden('该卡密已被停用，请联系卖家');
    if (card.status === 'used') throw ApiError.conflict(CARD_USED);

    const domain = await redemptionDomain(card, input.domainId);
    refusePendingDomain(domain);
    await refuseReservedLocalPart(settings, input.localPart);
    const localPart = input.localPart.toLowerCase();
    const address = `${localPart}@${domain.name}`;
    const now = Date.now();
    const validFor = card.valid_days * DAY;

    /** Marks the card used, in `trx`; false when another request got there first. */
    const claim = (trx: Queryable) =>
      markCardUsedIfUnused(trx, card.id, { usedBy: address, usedAt: Date.now() });

    const existing = await findMailboxByAddress(db, address);
    if (existing) {
      if (existing.kind !== 'account' || existing.password_hash === null) {
        throw ApiError.conflict(`邮箱 ${address} 已被占用，请换一个前缀`);
      }
      // A card must not be a way round the login throttle: password attempts on one mailbox from
      // one address are counted before the check, in one atomic step (parallel guesses included).
      const guessKey = `${address}\n${client.ip}`;
      if ((await passwordGuesses.hit(guessKey)) > MAX_PASSWORD_GUESSES) {
        throw ApiError.tooMany(
          `邮箱 ${address} 的密码输错次数过多，请 ${WRONG_WINDOW_MS / 60_000} 分钟后再试`,
          WRONG_WINDOW_MS / 1000,
        );
      }
      if (!(await verifyPassword(input.password, existing.password_hash))) {
        throw await refuseWrong(
          client.ip,
          `邮箱 ${address} 已存在，密码不正确：续期请填写该邮箱的密码，新开邮箱请换一个前缀`,
        );
      }
      await passwordGuesses.reset(guessKey);
      if (existing.enabled !== 1) throw ApiError.forbidden('该邮箱已被停用，不能续期，请联系管理员');
      if (existing.expires_at === null) throw ApiError.conflict('该邮箱永久有效，无需续期，卡密未被使用');
      const expiresAt = Math.max(existing.expires_at, now) + validFor;
      await db.transaction().execute(async (trx) => {
        if (!(await claim(trx))) throw ApiError.conflict(CARD_USED);
        await setMailboxExpiryAndQuota(trx, existing.id, {
          expires_at: expiresAt,
          quota_bytes: Math.max(existing.quota_bytes, card.quota_bytes),
        });
      });
      return { address, expiresAt: toIso(expiresAt), extended: true };
    }

    const taken = await addressTakenReason(db, address);
    if (taken) throw ApiError.conflict(taken);
    const current = await settings.get();
    const passwordHash = await hashPassword(input.password);
    const expiresAt = now + validFor;
    await db.transaction().execute(async (trx) => {
      if (!(await claim(trx))) throw ApiError.conflict(CARD_USED);
      await ensureMailboxLimit(trx, engine, domain.owner_id);
      await insertAccount(trx, {
        localPart,
        domain,
        passwordHash,
        quotaBytes: card.quota_bytes > 0 ? card.quota_bytes : current.defaultQuotaBytes,
        expiresAt,
        source: 'card',
        note: card.note ? `卡密兑换：${card.note}` : '卡密兑换',
      });
    });
    return { address, expiresAt: toIso(expiresAt), extended: false };
  }
}

export type CardService = ReturnType<typeof createCardService>;
