import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup of the server suite: compiles the server (incrementally, a few seconds when
 * nothing changed). Tests run the server from its TypeScript sources, but a worker thread cannot
 * load those: the store worker (src/store/store-worker.ts) runs from dist/, which must match them.
 */
export default function compileServer(): void {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/server/tsconfig.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
