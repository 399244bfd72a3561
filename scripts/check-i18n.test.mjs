import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('./check-i18n.mjs', import.meta.url));

it('finds no text outside both languages, apart from the files still listed as not converted', () => {
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  expect(run.stdout.split('\n').filter((line) => line && !line.startsWith('i18n:'))).toEqual([]);
  expect(run.status).toBe(0);
});
