import type { ColumnDefinitionBuilder } from 'kysely';
import type { Engine } from '../database.js';

/** An integer primary key the database numbers itself. */
export function idColumn(engine: Engine): {
  type: 'bigint' | 'integer';
  build: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
} {
  return engine === 'postgres'
    ? { type: 'bigint', build: (c) => c.primaryKey().generatedByDefaultAsIdentity() }
    : { type: 'integer', build: (c) => c.primaryKey().autoIncrement() };
}

/** Epoch milliseconds (and byte counts) need 64 bits. */
export function timeType(engine: Engine): 'bigint' | 'integer' {
  return engine === 'postgres' ? 'bigint' : 'integer';
}
