import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineFailure, runCli } from './operations-helpers.js';

/**
 * `npx youju` (scripts/youju.mjs over the built cli.js): `--help` lists every command, and every
 * mistake (unknown command, unknown or repeated option, missing or extra argument, bad
 * configuration) is one line on stderr with exit status 1, checked before anything is touched.
 */
let dataDir = '';
const env = () => ({ DATA_DIR: dataDir });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'youju-cli-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('youju command line', () => {
  it('lists every command in --help, and each command has its own usage', async () => {
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const help = await runCli(args, env());
      expect(help.code, help.stderr).toBe(0);
      for (const usage of ['backup --out FILE', 'restore FILE', 'migrate --to postgres://', '--version'])
        expect(help.stdout).toContain(usage);
    }
    for (const command of ['backup', 'restore', 'migrate']) {
      const usage = await runCli([command, '--help'], env());
      expect(usage.code).toBe(0);
      expect(usage.stdout).toContain(`用法：youju ${command}`);
    }
    const version = await runCli(['--version'], env());
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^youju \d+\.\d+\.\d+/);
  }, 60_000);

  it('answers every mistake with one line and exit status 1', async () => {
    expectOneLineFailure(await runCli(['frobnicate'], env()), '未知命令 frobnicate');
    expectOneLineFailure(await runCli(['--frobnicate'], env()), '未知命令');
    expectOneLineFailure(await runCli(['backup'], env()), '缺少 --out');
    expectOneLineFailure(await runCli(['backup', '--out'], env()), '--out 参数的值');
    expectOneLineFailure(await runCli(['backup', '--out', '--force'], env()), '--out 参数的值');
    expectOneLineFailure(
      await runCli(['backup', '--out', 'x.tar.gz', '--force'], env()),
      '不接受参数 --force',
    );
    expectOneLineFailure(await runCli(['backup', '--out=a', '--out', 'b'], env()), '重复');
    expectOneLineFailure(await runCli(['backup', '--out', 'a', 'extra'], env()), '多余的参数 extra');
    expectOneLineFailure(await runCli(['restore'], env()), '备份文件');
    expectOneLineFailure(await runCli(['restore', 'a', 'b'], env()), '多余的参数 b');
    expectOneLineFailure(await runCli(['restore', join(dataDir, 'missing.tar.gz')], env()), '找不到');
    expectOneLineFailure(await runCli(['migrate'], env()), '缺少 --to');
    expectOneLineFailure(await runCli(['migrate', '--to', 'mysql://db/youju'], env()), 'postgres://');
    // a configuration the server would refuse is refused here too, in one line
    expectOneLineFailure(
      await runCli(['backup', '--out', join(dataDir, 'b.tar.gz')], { ...env(), DATABASE_URL: 'not a url' }),
      'DATABASE_URL',
    );
  }, 60_000);
});
