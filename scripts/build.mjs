#!/usr/bin/env node
// Builds what `npm start` serves: the contract and server (tsc -b) and the web client (vite, which also
// writes antd's styles and a .br and a .gz beside each text file: apps/web/build/).
// Skips the work when nothing changed since the last build (a stamp of sources and PERMISSION_KEY).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const force = process.argv.includes('--force');

const inputs = [
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contract/src',
  'packages/contract/tsconfig.json',
  'apps/server/src',
  'apps/server/tsconfig.json',
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/build',
  'apps/web/tsconfig.json',
  'apps/web/public',
];

function walk(path, out) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path).sort()) walk(join(path, entry), out);
  } else if (!/\.test\.tsx?$/.test(path)) {
    out.push(`${path}:${stat.size}:${stat.mtimeMs}`);
  }
}

function stamp() {
  const entries = [];
  for (const input of inputs) walk(join(root, input), entries);
  entries.push(`key:${process.env.PERMISSION_KEY ?? ''}`);
  return createHash('sha256').update(entries.join('\n')).digest('hex');
}

/**
 * What /user/version shows about the build: the commit and the time. Without git (a release
 * tarball) the commit is null and the server says so.
 */
function writeBuildInfo() {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() : null;
  const info = { commit, date: new Date().toISOString() };
  writeFileSync(join(root, 'apps/server/dist/build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
}

const stampFile = join(root, 'apps/web/dist/.build-stamp');
const current = stamp();
const upToDate =
  !force &&
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8') === current &&
  existsSync(join(root, 'apps/server/dist/server.js'));

if (upToDate) {
  console.log('构建已是最新，跳过');
} else {
  const run = (command, args, cwd = root) => {
    const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`构建失败：${command} ${args.join(' ')}`);
      process.exit(result.status ?? 1);
    }
  };
  console.log('构建服务端（tsc -b）…');
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.json']);
  writeBuildInfo();
  console.log('构建网页客户端（vite build）…');
  run(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    join(root, 'apps/web'),
  );
  writeFileSync(stampFile, current);
}
