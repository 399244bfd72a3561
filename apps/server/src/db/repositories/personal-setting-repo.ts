import type { PersonalSettingTable } from '../schema.js';
import type { Queryable } from './queryable.js';

type Subject = Pick<PersonalSettingTable, 'subject_kind' | 'subject_id'>;
type PersonalValues = Omit<PersonalSettingTable, 'subject_kind' | 'subject_id'>;

/** The display name and signature of an account or mailbox, or undefined when never saved. */
export async function findPersonalSettings(
  db: Queryable,
  subject: Subject,
): Promise<Pick<PersonalSettingTable, 'display_name' | 'signature'> | undefined> {
  return db
    .selectFrom('personal_settings')
    .select(['display_name', 'signature'])
    .where('subject_kind', '=', subject.subject_kind)
    .where('subject_id', '=', subject.subject_id)
    .executeTakeFirst();
}

/** Stores the display name and signature of an account or mailbox, replacing what it held. */
export async function savePersonalSettings(
  db: Queryable,
  subject: Subject,
  values: PersonalValues,
): Promise<void> {
  await db
    .insertInto('personal_settings')
    .values({ ...subject, ...values })
    .onConflict((conflict) => conflict.columns(['subject_kind', 'subject_id']).doUpdateSet(values))
    .execute();
}
