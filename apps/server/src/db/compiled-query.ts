import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Queryable } from './repositories/queryable.js';

/**
 * Queries of the hot paths (every inbound message runs a dozen), built and compiled by Kysely once
 * and then run with new values. Building a query is most of what Kysely costs: its builders are
 * immutable, so each `.where()` copies the tree, and the tree is compiled to SQL on every run.
 * Measured for the webhook enqueue of each stored message (an INSERT…SELECT over three tables):
 * 650 µs to build and compile against 90 µs for SQLite to run it, on a busy machine.
 *
 * A query is built with stand-ins (`Slot`) where its values go; its compiled parameters then say
 * where each value lands. The SQL depends on the dialect and on the query's shape (how many values
 * an `in` list holds, which columns a row sets), so compiled queries are kept per adapter and per
 * `shape`, a key the caller builds from exactly what changes the SQL.
 */
class Slot {
  constructor(readonly index: number) {}
}

interface Template {
  compiled: CompiledQuery<unknown>;
  /** For each parameter: the index of the value that goes there, or -1 for a constant kept as is. */
  positions: number[];
}

const templates = new WeakMap<object, Map<string, Template>>();

/** Stand-ins for `count` values, typed as `never` so that they fit wherever a value does. */
function slots(count: number): never[] {
  return Array.from({ length: count }, (_, index) => new Slot(index) as never);
}

/**
 * Runs the query `build` makes from stand-ins (`$[0]`, `$[1]`, …), with `values` in their places.
 * `name` names the query, `shape` what else its SQL depends on (an `in` list's length, a row's
 * columns). The values must each stand alone in the query (not inside an expression evaluated while
 * building): they are parameters of the compiled SQL.
 */
export async function runCompiled<R, V extends readonly unknown[] = readonly unknown[]>(
  db: Queryable,
  name: string,
  shape: string,
  values: readonly [...V],
  build: ($: NoInfer<{ [K in keyof V]: never }>) => Compilable<R>,
): Promise<QueryResult<R>> {
  // The adapter's class names the dialect (SQLite or PostgreSQL): the same for every transaction.
  const dialect = db.getExecutor().adapter.constructor;
  let perDialect = templates.get(dialect);
  if (!perDialect) {
    perDialect = new Map();
    templates.set(dialect, perDialect);
  }
  const key = `${name}\u0000${shape}`;
  let template = perDialect.get(key);
  if (!template) {
    const compiled = build(
      slots(values.length) as unknown as { [K in keyof V]: never },
    ).compile() as CompiledQuery<unknown>;
    const positions = compiled.parameters.map((parameter) =>
      parameter instanceof Slot ? parameter.index : -1,
    );
    const used = new Set(positions.filter((position) => position >= 0));
    if (used.size !== values.length)
      throw new Error(`compiled query ${name}: ${values.length} values, ${used.size} placed in its SQL`);
    template = { compiled, positions };
    perDialect.set(key, template);
  }
  const { compiled, positions } = template;
  const parameters = positions.map((position, index) =>
    position === -1 ? compiled.parameters[index] : values[position],
  );
  return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
}
