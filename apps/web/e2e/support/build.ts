import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const webRoot = join(repositoryRoot, 'apps/web');
const serverEntry = join(repositoryRoot, 'apps/server/dist/server.js');
const webEntry = join(webRoot, 'dist/index.html');

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

function run(args: string[], cwd: string, what: string): void {
  // The test runner sets NODE_ENV=test, which would make Vite bundle development builds of React and antd.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what}失败：\n${result.stdout}\n${result.stderr}`);
}

let checked = false;

/**
 * The browser suite runs the built server and client. `npm test` builds both first; run alone, the
 * suite builds the server when it was never built and rebuilds the client when its sources are newer
 * than its build (the client is what these tests are about).
 */
export function ensureBuilt(): void {
  if (checked) return;
  if (!existsSync(serverEntry)) {
    run(
      [join(repositoryRoot, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.json'],
      repositoryRoot,
      '构建服务端',
    );
  }
  const sources = ['src', 'build', 'index.html', 'vite.config.ts'].map((entry) =>
    newestChange(join(webRoot, entry)),
  );
  if (!existsSync(webEntry) || statSync(webEntry).mtimeMs < Math.max(...sources)) {
    run(
      [join(repositoryRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      webRoot,
      '构建网页客户端',
    );
  }
  checked = true;
}
