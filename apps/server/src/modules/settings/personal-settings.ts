import type { PersonalSettings } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SubjectKind } from '../sessions/session-service.js';

const DEFAULTS: PersonalSettings = { displayName: '', signature: '' };

/** Display name and signature of one account or mailbox (table `personal_settings`). */
export function createPersonalSettingsService(db: Kysely<Database>) {
  async function get(kind: SubjectKind, subjectId: number): Promise<PersonalSettings> {
    const row = await db
      .selectFrom('personal_settings')
      .select(['display_name', 'signature'])
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', subjectId)
      .executeTakeFirst();
    return row ? { displayName: row.display_name, signature: row.signature } : { ...DEFAULTS };
  }

  return {
    get,
    async update(kind: SubjectKind, subjectId: number, changes: Partial<PersonalSettings>) {
      const next = { ...(await get(kind, subjectId)), ...changes };
      const values = {
        display_name: next.displayName.trim(),
        signature: next.signature.replace(/\r\n/g, '\n'),
        updated_at: Date.now(),
      };
      await db
        .insertInto('personal_settings')
        .values({ subject_kind: kind, subject_id: subjectId, ...values })
        .onConflict((conflict) => conflict.columns(['subject_kind', 'subject_id']).doUpdateSet(values))
        .execute();
      return get(kind, subjectId);
    },
  };
}

export type PersonalSettingsService = ReturnType<typeof createPersonalSettingsService>;
