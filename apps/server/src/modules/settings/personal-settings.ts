import type { PersonalSettings } from '@youju/contract';
import type { Kysely } from 'kysely';
import { findPersonalSettings, savePersonalSettings } from '../../db/repositories/personal-setting-repo.js';
import type { Database } from '../../db/schema.js';
import type { SubjectKind } from '../sessions/index.js';

const DEFAULTS: PersonalSettings = { displayName: '', signature: '' };

/** Display name and signature of one account or mailbox (table `personal_settings`). */
export function createPersonalSettingsService(db: Kysely<Database>) {
  async function get(kind: SubjectKind, subjectId: number): Promise<PersonalSettings> {
    const row = await findPersonalSettings(db, { subject_kind: kind, subject_id: subjectId });
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
      await savePersonalSettings(db, { subject_kind: kind, subject_id: subjectId }, values);
      return get(kind, subjectId);
    },
  };
}

export type PersonalSettingsService = ReturnType<typeof createPersonalSettingsService>;
