import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

/**
 * What every repository function takes first: the database itself, or an open transaction when
 * the caller needs several statements to stand or fall together. Services start transactions
 * (`db.transaction().execute(trx => …)`) and hand `trx` to the repositories; they never build a
 * query themselves.
 */
export type Queryable = Kysely<Database> | Transaction<Database>;
