import { ConfigError, loadConfig } from './config.js';
import { APP_VERSION } from './version.js';

/**
 * The backups module (and through it the database drivers and the program's migrations), loaded
 * only by a command that uses it: help, version and usage mistakes answer at once (they were a
 * second or more of loading on a busy machine).
 */
let backups: typeof import('./modules/backups/index.js') | undefined;
async function loadBackups(): Promise<typeof import('./modules/backups/index.js')> {
  backups ??= await import('./modules/backups/index.js');
  return backups;
}

/**
 * `youju`, the operator's command line: backup, restore and the move from SQLite to PostgreSQL.
 * It reads DATA_DIR and DATABASE_URL as the server does (config.ts). Each command exits 0 on
 * success and 1 with one line naming the reason on failure (an unknown command, a wrong argument,
 * a bad configuration, a failed operation).
 */

/** Every command, its arguments and one line of help: `--help` lists them all from here. */
const COMMANDS = [
  {
    name: 'backup',
    usage: 'backup --out FILE',
    help: '备份（运行中也可）：数据库、原始邮件、密钥与证书，写入 FILE（tar.gz，权限 0600）',
    options: ['--out'],
    positional: 0,
  },
  {
    name: 'restore',
    usage: 'restore FILE',
    help: '从备份恢复到空的 DATA_DIR（PostgreSQL 备份还需要空的 DATABASE_URL 数据库）',
    options: [],
    positional: 1,
  },
  {
    name: 'migrate',
    usage: 'migrate --to postgres://…',
    help: '把 DATA_DIR 中的 SQLite 安装复制到一个空的 PostgreSQL 数据库（源数据库只读）',
    options: ['--to'],
    positional: 0,
  },
] as const;

type Command = (typeof COMMANDS)[number];

const HELP = `用法：youju <命令> [参数]

命令：
${COMMANDS.map((command) => `  ${command.usage.padEnd(28)} ${command.help}`).join('\n')}
  ${'--help'.padEnd(28)} 显示本帮助（youju <命令> --help 显示该命令的用法）
  ${'--version'.padEnd(28)} 显示版本

环境变量：DATA_DIR（默认 ./data）、DATABASE_URL（设置时为 PostgreSQL），与服务器相同。
`;

class UsageError extends Error {}

/**
 * The arguments of `command`, checked before anything runs: only its own options (each once, with a
 * value, as `--name value` or `--name=value`) and exactly its number of positional arguments, so a
 * typo fails with the reason instead of being ignored.
 */
function parseArguments(
  command: Command,
  args: string[],
): { options: Map<string, string>; positional: string[] } {
  const allowed: readonly string[] = command.options;
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (!allowed.includes(name))
      throw new UsageError(`${command.name} 不接受参数 ${name}（用法：youju ${command.usage}）`);
    if (options.has(name)) throw new UsageError(`参数 ${name} 重复（用法：youju ${command.usage}）`);
    const value = equals === -1 ? args[++index] : arg.slice(equals + 1);
    if (value === undefined || value === '' || value.startsWith('--'))
      throw new UsageError(`缺少 ${name} 参数的值（用法：youju ${command.usage}）`);
    options.set(name, value);
  }
  for (const name of allowed)
    if (!options.has(name)) throw new UsageError(`缺少 ${name} 参数（用法：youju ${command.usage}）`);
  if (positional.length < command.positional)
    throw new UsageError(`缺少备份文件（用法：youju ${command.usage}）`);
  if (positional.length > command.positional)
    throw new UsageError(
      `多余的参数 ${positional.slice(command.positional).join(' ')}（用法：youju ${command.usage}）`,
    );
  return { options, positional };
}

/** The database URL without its password, for messages. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

async function run(args: string[]): Promise<void> {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`youju ${APP_VERSION}\n`);
    return;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) throw new UsageError(`未知命令 ${name}（youju --help 查看用法）`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`用法：youju ${command.usage}\n${command.help}\n`);
    return;
  }
  const { options, positional } = parseArguments(command, rest);
  const config = loadConfig(process.env);
  const target = { dataDir: config.dataDir, databaseUrl: config.databaseUrl, version: APP_VERSION };
  const { createBackup, describeManifest, moveToPostgres, restoreBackup } = await loadBackups();
  switch (command.name) {
    case 'backup': {
      const out = options.get('--out') as string;
      const manifest = await createBackup(target, out);
      process.stdout.write(`备份完成：${describeManifest(manifest, out)}\n`);
      return;
    }
    case 'restore': {
      const file = positional[0] as string;
      const manifest = await restoreBackup(target, file);
      process.stdout.write(`恢复完成：${describeManifest(manifest, file)} → ${config.dataDir}\n`);
      return;
    }
    case 'migrate': {
      const to = options.get('--to') as string;
      if (!/^postgres(ql)?:\/\//.test(to)) throw new UsageError('--to 必须是 postgres:// 地址');
      if (config.databaseUrl)
        throw new UsageError(
          'DATABASE_URL 已设置：migrate 从 DATA_DIR 中的 SQLite 复制，请不设 DATABASE_URL 运行',
        );
      const result = await moveToPostgres(config.dataDir, to, (line) => process.stdout.write(`${line}\n`));
      const rows = result.tables.reduce((sum, table) => sum + table.rows, 0);
      process.stdout.write(
        `迁移完成：${result.tables.length} 张表、${rows} 行已复制并校验到 ${withoutPassword(to)}` +
          `${result.skipped.length > 0 ? `（SQLite 专用的 ${result.skipped.join('、')} 未复制）` : ''}\n` +
          `证书与密钥仍在 ${config.dataDir}：以 DATABASE_URL=<新地址> DATA_DIR=${config.dataDir} 启动 Youju\n`,
      );
      return;
    }
  }
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const known =
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (backups !== undefined &&
        (error instanceof backups.BackupError || error instanceof backups.BackupFormatError));
    const message = error instanceof Error ? error.message : String(error);
    // one line: the reason, never a stack
    process.stderr.write(`youju: ${known ? '' : '失败：'}${message.replace(/\s+/g, ' ').trim()}\n`);
    process.exit(1);
  },
);
