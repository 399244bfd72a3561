import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Vitest global setup of the server suite: compiles the server (incrementally, a few seconds when
 * nothing changed). Tests run the server from its TypeScript sources, but a worker thread cannot
 * load those: the store worker (src/store/store-worker.ts) runs from dist/, which must match them.
 * Afterwards it drops the migrated template databases this run's workers made on PostgreSQL, and the
 * test databases they left (test-server.ts): their names carry this process's id, the workers' parent.
 */
export default function compileServer(): () => Promise<void> {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/server/tsconfig.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  return async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
    if (process.env.YOUJU_TEST_ENGINE !== 'postgres' || !adminUrl) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      // A worker that ended while copying a database for a next server leaves that CREATE DATABASE
      // running on the server, to commit after this looks: wait for it (seconds at most).
      for (let waited = 0; waited < 30_000; waited += 200) {
        const { rowCount } = await client.query(
          "select 1 from pg_stat_activity where state = 'active' and query like $1",
          [`CREATE DATABASE youju\\_t\\_${process.pid}\\_%`],
        );
        if (!rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // Kept in step with POSTGRES_TEMPLATE_PREFIX and POSTGRES_DATABASE_PREFIX in test-server.ts
      // (not imported: this file runs before the server is compiled and must not load its sources).
      // Templates and the test databases a worker left: the one it had made ready for a next
      // server, and any it was still dropping when it ended.
      const { rows } = await client.query<{ datname: string }>(
        'select datname from pg_database where datname like $1 or datname like $2',
        [`youju\\_tpl\\_${process.pid}\\_%`, `youju\\_t\\_${process.pid}\\_%`],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}
