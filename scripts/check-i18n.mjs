#!/usr/bin/env node
// The two languages of the interface and the API (issue 17 item 7), checked against the code:
//   web: Chinese text in apps/web/src outside a `t('…')` call (it would stay Chinese in English),
//        and a `t()` key without its English entry in apps/web/src/lib/i18n/en/*.json;
//   server: a message that can reach `msg` (an ApiError's, a `msg:`, `detail:` or
//        `hostnameWarning:` property's, a message constant's, DefaultMessage's), a field label or schema description
//        (named by validation messages), or a text of a file whose texts routes localize, without
//        an entry in apps/server/src/lib/i18n/en.ts (template values as `{}`).
// `node scripts/check-i18n.mjs [--summary]` prints each finding as `file:line kind: text` (or the
// counts per file) and exits 1 when there is one. Files still listed in scripts/i18n-pending.json
// are not yet converted: they are counted, not failed. `i18n-exempt` on a text's line (or the
// line before) exempts it: text that is the same in every language, such as a language's own name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// CHECK_I18N_ROOT: another tree laid out like this one (the script's tests check small ones).
const root = process.env.CHECK_I18N_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const summary = process.argv.includes('--summary');

function files(dir, pattern) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, pattern));
    else if (pattern.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

function sourceOf(path) {
  return ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

/** A template's text with `{}` for each value. */
function templateKey(node) {
  if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) return node.text;
  return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
}

const findings = [];
const pending = new Set(JSON.parse(readFileSync(join(root, 'scripts/i18n-pending.json'), 'utf8')).files);
function report(path, node, kind, text) {
  const file = relative(root, path);
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart());
  // Text that is the same in every language (a language's own name) says so: `i18n-exempt` on its
  // line or the line before.
  const lines = source.text.split('\n');
  if (/i18n-exempt/.test(lines[line] ?? '') || /i18n-exempt/.test(lines[line - 1] ?? '')) return;
  findings.push({
    file,
    line: line + 1,
    kind,
    text: text.replace(/\s+/g, ' ').slice(0, 80),
    pending: pending.has(file),
  });
}

// --- web
const englishDir = join(root, 'apps/web/src/lib/i18n/en');
const webEnglish = Object.assign(
  {},
  ...readdirSync(englishDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(englishDir, name), 'utf8'))),
);
const webKeys = new Set();
for (const path of files(join(root, 'apps/web/src'), /\.tsx?$/)) {
  const source = sourceOf(path);
  const visit = (node) => {
    const isText =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node) ||
      ts.isJsxText(node);
    if (isText) {
      const text = ts.isJsxText(node) ? node.text : templateKey(node);
      if (CJK.test(text)) {
        const call = node.parent;
        const callee =
          call && ts.isCallExpression(call) && ts.isIdentifier(call.expression) ? call.expression.text : null;
        // t('文本') and tc('context', '文本'), whose entry is keyed 'context|文本'.
        const context =
          callee === 'tc' && call.arguments[1] === node && ts.isStringLiteral(call.arguments[0])
            ? call.arguments[0].text
            : null;
        const inT = (callee === 't' && call.arguments[0] === node) || context !== null;
        if (!inT) report(path, node, 'not-in-t', text);
        else if (ts.isTemplateExpression(node)) report(path, node, 'template-in-t', text);
        else {
          const key = context === null ? text : `${context}|${text}`;
          webKeys.add(key);
          if (!(key in webEnglish)) report(path, node, 'no-english', key);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

// --- server
/** The keys of the server's catalogue (en.ts: one object literal of string keys). */
function serverCatalogue() {
  const keys = new Set();
  const visit = (node) => {
    if (ts.isPropertyAssignment(node) && (ts.isStringLiteral(node.name) || ts.isIdentifier(node.name)))
      keys.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceOf(join(root, 'apps/server/src/lib/i18n/en.ts')));
  return keys;
}
const serverEnglish = serverCatalogue();
const serverFiles = [
  ...files(join(root, 'apps/server/src'), /\.ts$/).filter(
    (path) => !path.includes('/db/migrations/') && !path.includes('/lib/i18n/'),
  ),
  join(root, 'packages/contract/src/errors.ts'),
  join(root, 'packages/contract/src/field-labels.ts'),
  ...files(join(root, 'packages/contract/src/schemas'), /\.ts$/),
].filter((path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
});
/** Properties whose text is shown as it is (a failure's message, a DNS record's or certificate's advice). */
const MESSAGE_PROPERTIES = new Set(['msg', 'detail', 'hostnameWarning']);
function reachesMsg(node) {
  // new ApiError(code, '…'), ApiError.badRequest('…') and the like, `msg: '…'`, DefaultMessage entries
  for (let at = node.parent, depth = 0; at && depth < 4; at = at.parent, depth++) {
    if (
      ts.isNewExpression(at) &&
      ts.isIdentifier(at.expression) &&
      /^(ApiError|DeliveryError)$/.test(at.expression.text)
    )
      return true;
    if (
      ts.isCallExpression(at) &&
      ts.isPropertyAccessExpression(at.expression) &&
      ts.isIdentifier(at.expression.expression) &&
      at.expression.expression.text === 'ApiError'
    )
      return true;
    if (ts.isPropertyAssignment(at) && ts.isIdentifier(at.name) && MESSAGE_PROPERTIES.has(at.name.text))
      return true;
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name) && /MESSAGE|Message$/.test(at.name.text))
      return true;
    // `const WRONG_CREDENTIALS = '用户名或密码错误'`: a message kept in a constant for its throws
    if (
      ts.isVariableDeclaration(at) &&
      at.initializer === node &&
      ts.isIdentifier(at.name) &&
      /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(at.name.text)
    )
      return true;
  }
  return false;
}
/**
 * Files whose every Chinese text reaches people through a route that localizes it (`localize()`):
 * field labels and the schemas' descriptions (named by validation messages), the DNS check's
 * advice, device names, the dashboard's axes, why a copy was not forwarded, why a webhook or a
 * message's delivery failed, what is wrong with a certificate.
 */
const LOCALIZED_FILES = [
  /^packages\/contract\/src\/field-labels\.ts$/,
  /^packages\/contract\/src\/schemas\//,
  /^apps\/server\/src\/modules\/dns\/dns-(records|hostname|lookup)\.ts$/,
  /^apps\/server\/src\/modules\/security\/user-agent\.ts$/,
  /^apps\/server\/src\/modules\/dashboard\/dashboard-service\.ts$/,
  /^apps\/server\/src\/modules\/forwarding\/forward-enqueue\.ts$/,
  /^apps\/server\/src\/modules\/webhooks\/(safe-post|webhook-worker)\.ts$/,
  /^apps\/server\/src\/modules\/sending\/(delivery-worker|mx-route|smtp-delivery)\.ts$/,
  /^apps\/server\/src\/modules\/certificates\/(certificate-store|acme-transport|acme-dns)\.ts$/,
];
function localizedFile(path) {
  const file = relative(root, path);
  return LOCALIZED_FILES.some((pattern) => pattern.test(file));
}
/** In a schema, only a field's description is read by people (in a validation message). */
function isDescription(node) {
  const at = node.parent;
  return ts.isPropertyAssignment(at) && ts.isIdentifier(at.name) && at.name.text === 'description';
}
for (const path of serverFiles) {
  const source = sourceOf(path);
  const visit = (node) => {
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node)) &&
      CJK.test(templateKey(node)) &&
      (relative(root, path).startsWith('packages/contract/src/schemas/')
        ? isDescription(node)
        : localizedFile(path) || reachesMsg(node))
    ) {
      const key = templateKey(node);
      if (!serverEnglish.has(key)) report(path, node, 'server-no-english', key);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const failing = findings.filter((finding) => !finding.pending);
if (summary) {
  const byFile = new Map();
  for (const finding of findings) byFile.set(finding.file, (byFile.get(finding.file) ?? 0) + 1);
  for (const [file, count] of [...byFile].sort((a, b) => b[1] - a[1]))
    console.log(`${String(count).padStart(5)}  ${file}${pending.has(file) ? ' (pending)' : ''}`);
} else for (const f of failing) console.log(`${f.file}:${f.line} ${f.kind}: ${f.text}`);
const unused = Object.keys(webEnglish).filter((key) => !webKeys.has(key));
for (const key of unused) console.log(`apps/web/src/lib/i18n/en/*.json unused: ${key}`);
console.log(
  `i18n: ${failing.length} to fix, ${findings.length - failing.length} in files not yet converted (${pending.size} files), ${unused.length} unused English entries`,
);
process.exit(failing.length + unused.length > 0 ? 1 : 0);
