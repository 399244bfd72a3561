import type { UploadRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/** Ids of uploads made before `before`, at most `limit` of them. */
export async function listUploadIdsCreatedBefore(
  db: Queryable,
  before: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('uploads')
    .select('id')
    .where('created_at', '<', before)
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Removes uploads with their bytes (chunks first); run it in a transaction. */
export async function deleteUploads(db: Queryable, ids: string[]): Promise<void> {
  await db.deleteFrom('upload_chunks').where('upload_id', 'in', ids).execute();
  await db.deleteFrom('uploads').where('id', 'in', ids).execute();
}

export async function insertUpload(db: Queryable, row: UploadRow): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

/** Stores slice `seq` (from 0) of an upload's bytes. */
export async function insertUploadChunk(
  db: Queryable,
  uploadId: string,
  seq: number,
  data: Buffer,
): Promise<void> {
  await db.insertInto('upload_chunks').values({ upload_id: uploadId, seq, data }).execute();
}

/** The uploads among `ids` that belong to the owner, in no particular order. */
export async function findUploadsOfOwner(
  db: Queryable,
  owner: Pick<UploadRow, 'owner_kind' | 'owner_id'>,
  ids: string[],
): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('id', 'in', ids)
    .where('owner_kind', '=', owner.owner_kind)
    .where('owner_id', '=', owner.owner_id)
    .execute();
}

/** Slice `seq` of an upload's bytes, or undefined past the last one. */
export async function findUploadChunk(
  db: Queryable,
  uploadId: string,
  seq: number,
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('upload_chunks')
    .select('data')
    .where('upload_id', '=', uploadId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}
