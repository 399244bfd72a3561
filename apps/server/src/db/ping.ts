import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * Whether the database answers a trivial query within `timeoutMs` (the readiness check). Resolves
 * to null when it did, or to the reason it did not; never throws. A query still running at the
 * timeout is left to finish or fail on its own: its connection goes back to the pool either way.
 */
export async function pingDatabase(db: Kysely<Database>, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  const query = sql`select 1`.execute(db).then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
