import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./check-i18n.mjs', import.meta.url));
/** Source text with a template's `${…}` in it. */
const DOLLAR = '$';
/** Each run loads TypeScript to parse: slow on a busy machine. */
const SLOW = 60_000;

it(
  'finds no text outside both languages, apart from the files still listed as not converted',
  () => {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stdout.split('\n').filter((line) => line && !line.startsWith('i18n:'))).toEqual([]);
    expect(run.status).toBe(0);
  },
  SLOW,
);

/** A small tree laid out like the repository's, checked with CHECK_I18N_ROOT. */
function checkTree(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-i18n-'));
  const tree = {
    'apps/web/src/lib/i18n/en/common.json': '{}',
    'apps/server/src/lib/i18n/en.ts': 'export const ENGLISH = {};',
    'packages/contract/src/errors.ts': '',
    'packages/contract/src/schemas/.keep': '',
    'scripts/i18n-pending.json': '{"files": []}',
    ...files,
  };
  try {
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      env: { ...process.env, CHECK_I18N_ROOT: root },
    });
    return {
      status: run.status,
      lines: run.stdout.split('\n').filter((line) => line && !line.startsWith('i18n:')),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the server part', () => {
  const catalogue = (keys) =>
    `export const ENGLISH = {\n${keys.map((key) => `  '${key}': 'English',`).join('\n')}\n};`;

  it(
    'finds each kind of message without English: a throw, a msg, a constant, a detail, a template',
    () => {
      const result = checkTree({
        'apps/server/src/modules/a.ts': [
          "const WRONG_CREDENTIALS = '用户名或密码错误';",
          "const LABELS = ['不是消息'];",
          "throw ApiError.badRequest('缺少英文');",
          `reply.send({ msg: \`域名 ${DOLLAR}{name} 已存在\` });`,
          "return { detail: '记录有效' };",
          "log.info('日志不是消息');",
        ].join('\n'),
      });
      expect(result.status).toBe(1);
      expect(result.lines).toEqual([
        'apps/server/src/modules/a.ts:1 server-no-english: 用户名或密码错误',
        'apps/server/src/modules/a.ts:3 server-no-english: 缺少英文',
        'apps/server/src/modules/a.ts:4 server-no-english: 域名 {} 已存在',
        'apps/server/src/modules/a.ts:5 server-no-english: 记录有效',
      ]);
    },
    SLOW,
  );

  it(
    'is satisfied by the catalogue, with {} for values; exempt lines and pending files do not fail',
    () => {
      const result = checkTree({
        'apps/server/src/lib/i18n/en.ts': catalogue(['用户名或密码错误', '域名 {} 已存在']),
        'apps/server/src/modules/a.ts': [
          "const WRONG_CREDENTIALS = '用户名或密码错误';",
          `reply.send({ msg: \`域名 ${DOLLAR}{name} 已存在\` });`,
          '// i18n-exempt: mail content',
          "const NAME = '邮件系统退信';",
        ].join('\n'),
        'apps/server/src/modules/b.ts': "throw new ApiError(400, '还没有转换');",
        'scripts/i18n-pending.json': '{"files": ["apps/server/src/modules/b.ts"]}',
      });
      expect(result).toEqual({ status: 0, lines: [] });
    },
    SLOW,
  );

  it(
    'needs English for field labels, schema descriptions and every text of a localized file',
    () => {
      const result = checkTree({
        'packages/contract/src/field-labels.ts': "export const FieldLabels = { password: '密码' };",
        'packages/contract/src/schemas/auth.ts':
          "export const Login = Type.Object({ name: Type.String({ description: '用户名', title: '不读' }) });",
        'apps/server/src/modules/dns/dns-records.ts': `const ask = (d) => \`在域名 ${DOLLAR}{d} 添加\`;`,
        'apps/server/src/modules/security/user-agent.ts': "const unknown = '未知设备';",
      });
      expect(result.lines).toEqual([
        'apps/server/src/modules/dns/dns-records.ts:1 server-no-english: 在域名 {} 添加',
        'apps/server/src/modules/security/user-agent.ts:1 server-no-english: 未知设备',
        'packages/contract/src/field-labels.ts:1 server-no-english: 密码',
        'packages/contract/src/schemas/auth.ts:1 server-no-english: 用户名',
      ]);
    },
    SLOW,
  );
});

describe('the web part', () => {
  it(
    "keys tc('context', text) by context|text, and finds text outside t() and keys without English",
    () => {
      const result = checkTree({
        'apps/web/src/lib/i18n/en/common.json': JSON.stringify({ 关闭: 'Close', 'state|关闭': 'Closed' }),
        'apps/web/src/a.tsx': [
          "const a = t('关闭');",
          "const b = tc('state', '关闭');",
          "const c = tc('action', '关闭');",
          "const d = '裸文本';",
        ].join('\n'),
      });
      expect(result.status).toBe(1);
      expect(result.lines).toEqual([
        'apps/web/src/a.tsx:3 no-english: action|关闭',
        'apps/web/src/a.tsx:4 not-in-t: 裸文本',
      ]);
    },
    SLOW,
  );
});
