import type { Filter, NewFilter } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Database, MailFilterRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { AuthContext } from '../sessions/session-service.js';
import { regexProblem, testRegex } from './regex-guard.js';

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

function matches(filter: MailFilterRow, subject: FilterSubject, log: Logger): boolean {
  return subject[filter.field].some((text) => matchesOne(filter, text, log));
}

function matchesOne(filter: MailFilterRow, text: string, log: Logger): boolean {
  switch (filter.match) {
    case 'contains':
      return text.toLowerCase().includes(filter.value.toLowerCase());
    case 'equals':
      return text.trim().toLowerCase() === filter.value.trim().toLowerCase();
    case 'regex': {
      const outcome = testRegex(filter.value, text);
      if (outcome === 'timeout') log.warn(`filter ${filter.id}: regex took too long and was skipped`);
      return outcome === 'match';
    }
  }
}

/**
 * Content filters (API.md getFilters/addFilter/delFilter): a system user's filters apply to mail
 * for the mailboxes it owns; an administrator's filters apply to all mail.
 */
export function createFilterService(db: Kysely<Database>, log: Logger) {
  async function owned(auth: AuthContext, id: number): Promise<MailFilterRow> {
    const row = await db.selectFrom('mail_filters').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (auth.role !== 'admin' && row.owner_id !== auth.accountId)) {
      throw ApiError.notFound('过滤规则不存在');
    }
    return row;
  }

  return {
    async list(auth: AuthContext): Promise<Filter[]> {
      let query = db.selectFrom('mail_filters').selectAll().orderBy('id');
      if (auth.role !== 'admin') query = query.where('owner_id', '=', auth.accountId ?? -1);
      return (await query.execute()).map(filterView);
    },

    async add(auth: AuthContext, input: NewFilter): Promise<Filter> {
      if (auth.accountId === null) throw ApiError.forbidden();
      if (input.match === 'regex') {
        const problem = regexProblem(input.value);
        if (problem) throw ApiError.badRequest(problem);
      }
      const row = await db
        .insertInto('mail_filters')
        .values({
          owner_id: auth.accountId,
          field: input.field,
          match: input.match,
          value: input.value,
          action: input.action,
          enabled: input.enabled === false ? 0 : 1,
          created_at: Date.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return filterView(row);
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      await owned(auth, id);
      await db.deleteFrom('mail_filters').where('id', '=', id).execute();
    },

    /**
     * The action for each mailbox owner: their own filters plus every administrator's. Returns a map
     * from owner account id to the strongest matching action.
     */
    async decide(ownerIds: number[], subject: FilterSubject): Promise<Map<number, FilterAction>> {
      const decisions = new Map<number, FilterAction>(ownerIds.map((id) => [id, 'accept']));
      if (ownerIds.length === 0) return decisions;
      const rows = await db
        .selectFrom('mail_filters')
        .innerJoin('system_accounts', 'system_accounts.id', 'mail_filters.owner_id')
        .selectAll('mail_filters')
        .select('system_accounts.role')
        .where('mail_filters.enabled', '=', 1)
        .where((eb) =>
          eb.or([eb('mail_filters.owner_id', 'in', ownerIds), eb('system_accounts.role', '=', 'admin')]),
        )
        .orderBy('mail_filters.id')
        .execute();
      for (const row of rows) {
        if (!matches(row, subject, log)) continue;
        const action = row.action;
        const targets = row.role === 'admin' ? ownerIds : [row.owner_id];
        for (const owner of targets) {
          const before = decisions.get(owner);
          if (before !== undefined && STRENGTH[action] > STRENGTH[before]) decisions.set(owner, action);
        }
      }
      return decisions;
    },
  };
}

export type FilterService = ReturnType<typeof createFilterService>;
