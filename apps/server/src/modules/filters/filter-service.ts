import type { Filter, NewFilter } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import {
  countFiltersOfOwner,
  deleteFilterById,
  findFilterById,
  insertFilter,
  listEnabledFiltersForOwners,
  listFilters,
} from '../../db/repositories/filter-repo.js';
import type { Database, MailFilterRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { AuthContext } from '../sessions/index.js';
import { managedScope, mayManage } from '../sessions/index.js';
import { patternMatches, patternProblem } from './user-pattern.js';

/** Filters per account, and regular-expression filters among them: the work per message has a ceiling. */
export const MAX_FILTERS_PER_ACCOUNT = 100;
export const MAX_PATTERN_FILTERS_PER_ACCOUNT = 20;
/**
 * Time the regular-expression filters of one message may take in all. Each pattern is linear, but
 * many accounts' filters on one message add up; past the budget the rest are skipped (and logged)
 * rather than hold up every other connection.
 */
const PATTERN_BUDGET_MS = 100;

/**
 * What a message looks like to the filters: each field has the candidate values a rule is tried
 * against (the sender is "addr", "Name", "Name <addr>" and the envelope sender).
 */
export interface FilterSubject {
  from: string[];
  to: string[];
  subject: string[];
  body: string[];
}

export type FilterAction = 'accept' | 'spam' | 'discard' | 'reject';

/** Stronger actions win when several filters match: reject > discard > spam > accept. */
const STRENGTH: Record<FilterAction, number> = { accept: 0, spam: 1, discard: 2, reject: 3 };

interface Logger {
  warn(message: string): void;
}

function filterView(row: MailFilterRow): Filter {
  return {
    id: row.id,
    field: row.field,
    match: row.match,
    value: row.value,
    action: row.action,
    enabled: row.enabled === 1,
  };
}

function matches(filter: MailFilterRow, subject: FilterSubject): boolean {
  return subject[filter.field].some((text) => matchesOne(filter, text));
}

function matchesOne(filter: MailFilterRow, text: string): boolean {
  switch (filter.match) {
    case 'contains':
      return text.toLowerCase().includes(filter.value.toLowerCase());
    case 'equals':
      return text.trim().toLowerCase() === filter.value.trim().toLowerCase();
    case 'regex':
      return patternMatches(filter.value, text);
  }
}

/**
 * Content filters (getFilters/addFilter/delFilter): a system user's filters apply to mail
 * for the mailboxes it owns; an administrator's filters apply to all mail.
 */
export function createFilterService(db: Kysely<Database>, engine: Engine, log: Logger) {
  async function owned(auth: AuthContext, id: number): Promise<MailFilterRow> {
    const row = await findFilterById(db, id);
    if (!row || !mayManage(auth, row.owner_id)) {
      throw ApiError.notFound('过滤规则不存在');
    }
    return row;
  }

  return {
    async list(auth: AuthContext): Promise<Filter[]> {
      return (await listFilters(db, managedScope(auth))).map(filterView);
    },

    async add(auth: AuthContext, input: NewFilter): Promise<Filter> {
      const ownerId = auth.accountId;
      if (ownerId === null) throw ApiError.forbidden();
      if (input.match === 'regex') {
        const problem = patternProblem(input.value);
        if (problem) throw ApiError.badRequest(problem);
      }
      return db.transaction().execute(async (trx) => {
        // Counted in the transaction that inserts, under a lock on PostgreSQL (one connection on
        // SQLite), so parallel additions cannot pass the caps together.
        await lockForTransaction(trx, engine, `filters:${ownerId}`);
        const counts = await countFiltersOfOwner(trx, ownerId);
        if (counts.all >= MAX_FILTERS_PER_ACCOUNT) {
          throw ApiError.forbidden(
            `过滤规则已达上限（${MAX_FILTERS_PER_ACCOUNT} 条），请删除不用的规则后再添加`,
          );
        }
        if (input.match === 'regex' && Number(counts.patterns ?? 0) >= MAX_PATTERN_FILTERS_PER_ACCOUNT) {
          throw ApiError.forbidden(
            `正则表达式规则已达上限（${MAX_PATTERN_FILTERS_PER_ACCOUNT} 条），请合并规则，或改用“包含”“等于”匹配`,
          );
        }
        const row = await insertFilter(trx, {
          owner_id: ownerId,
          field: input.field,
          match: input.match,
          value: input.value,
          action: input.action,
          enabled: input.enabled === false ? 0 : 1,
          created_at: Date.now(),
        });
        return filterView(row);
      });
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      await owned(auth, id);
      await deleteFilterById(db, id);
    },

    /**
     * The action for each mailbox owner: their own filters plus every administrator's. Returns a map
     * from owner account id to the strongest matching action.
     */
    async decide(ownerIds: number[], subject: FilterSubject): Promise<Map<number, FilterAction>> {
      const decisions = new Map<number, FilterAction>(ownerIds.map((id) => [id, 'accept']));
      if (ownerIds.length === 0) return decisions;
      const rows = await listEnabledFiltersForOwners(db, ownerIds);
      const started = performance.now();
      let skipped = 0;
      for (const row of rows) {
        if (row.match === 'regex' && performance.now() - started > PATTERN_BUDGET_MS) {
          skipped++;
          continue;
        }
        if (!matches(row, subject)) continue;
        const action = row.action;
        const targets = row.role === 'admin' ? ownerIds : [row.owner_id];
        for (const owner of targets) {
          const before = decisions.get(owner);
          if (before !== undefined && STRENGTH[action] > STRENGTH[before]) decisions.set(owner, action);
        }
      }
      if (skipped > 0)
        log.warn(`filters: ${skipped} pattern filters skipped, over the ${PATTERN_BUDGET_MS} ms budget`);
      return decisions;
    },
  };
}

export type FilterService = ReturnType<typeof createFilterService>;
