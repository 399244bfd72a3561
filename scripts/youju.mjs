#!/usr/bin/env node
// `npx youju …`: the operator's command line (apps/server/src/cli.ts), once built (npm run build).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../apps/server/dist/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('youju: 尚未构建，先运行 npm run build\n');
  process.exit(1);
}
await import(cli.href);
