import { ConfigError, loadConfig } from './config.js';
import {
  BackupError,
  BackupFormatError,
  createBackup,
  describeManifest,
  moveToPostgres,
  restoreBackup,
} from './modules/backups/index.js';
import { APP_VERSION } from './version.js';

/**
 * `youju`, the operator's command line: backup, restore and the move from SQLite to PostgreSQL.
 * It reads DATA_DIR and DATABASE_URL as the server does (config.ts). Each command exits 0 on
 * success and 1 with one line naming the reason on failure.
 */

const HELP = `用法：youju <命令> [参数]

命令：
  backup --out FILE            备份（运行中也可）：数据库、原始邮件、密钥与证书，写入 FILE（tar.gz，权限 0600）
  restore FILE                 从备份恢复到空的 DATA_DIR（PostgreSQL 备份还需要空的 DATABASE_URL 数据库）
  migrate --to postgres://…    把 DATA_DIR 中的 SQLite 安装复制到一个空的 PostgreSQL 数据库（源数据库只读）
  --help                       显示本帮助

环境变量：DATA_DIR（默认 ./data）、DATABASE_URL（设置时为 PostgreSQL），与服务器相同。
`;

class UsageError extends Error {}

function option(args: string[], name: string): string {
  const at = args.indexOf(name);
  const value = at === -1 ? undefined : args[at + 1];
  if (value === undefined || value.startsWith('--'))
    throw new UsageError(`缺少 ${name} 参数（youju --help 查看用法）`);
  return value;
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
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const config = loadConfig(process.env);
  const target = { dataDir: config.dataDir, databaseUrl: config.databaseUrl, version: APP_VERSION };
  switch (command) {
    case 'backup': {
      const out = option(rest, '--out');
      const manifest = await createBackup(target, out);
      process.stdout.write(`备份完成：${describeManifest(manifest, out)}\n`);
      return;
    }
    case 'restore': {
      const file = rest.find((arg) => !arg.startsWith('--'));
      if (!file) throw new UsageError('缺少备份文件（youju restore FILE）');
      const manifest = await restoreBackup(target, file);
      process.stdout.write(`恢复完成：${describeManifest(manifest, file)} → ${config.dataDir}\n`);
      return;
    }
    case 'migrate': {
      const to = option(rest, '--to');
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
    default:
      throw new UsageError(`未知命令 ${command}（youju --help 查看用法）`);
  }
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const known =
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof BackupError ||
      error instanceof BackupFormatError;
    const message = error instanceof Error ? error.message : String(error);
    // one line: the reason, never a stack
    process.stderr.write(`youju: ${known ? '' : '失败：'}${message.replace(/\s+/g, ' ').trim()}\n`);
    process.exit(1);
  },
);
