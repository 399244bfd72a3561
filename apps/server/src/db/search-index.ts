import { type Kysely, sql } from 'kysely';
import type { Engine } from './database.js';

/**
 * What to tell the operator when migration 025 could not index mail search: on PostgreSQL it goes
 * on without the pg_trgm indexes where the database refused CREATE EXTENSION. Search is then still
 * correct, only slower on large stores. Null when the indexes are there (always on SQLite).
 */
export async function searchIndexWarning(db: Kysely<unknown>, engine: Engine): Promise<string | null> {
  if (engine !== 'postgres') return null;
  const { rows } = await sql`select 1 from pg_indexes
    where tablename = 'messages' and indexname = 'messages_search_subject'`.execute(db);
  if (rows.length > 0) return null;
  return (
    '邮件搜索没有索引：数据库未安装 pg_trgm 扩展（迁移 025 无权创建）。搜索结果仍然正确，但邮件多时会变慢。' +
    '请由数据库管理员执行 CREATE EXTENSION pg_trgm 并建立索引，步骤见 apps/server/src/db/README.md。'
  );
}
