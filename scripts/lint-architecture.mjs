#!/usr/bin/env node
// The import and data-access rules of ARCHITECTURE.md, checked on every `npm run lint`:
//   1. protocols/ (wire formats) import no feature code: only node:, npm packages and protocols/.
//   2. Outside a server module, only its public `index.ts` is imported (tests excepted); web
//      features are imported directly by app/ (barrels would merge per-route chunks).
//   3. No import cycle between files, nor between modules (server modules, web features).
//   4. Only the database layer (src/db/) builds queries, and each table is read and written from
//      the one repository that owns it (TABLE_OWNERS); a repository may join any table.
//   5. Modules import neither the listeners (src/smtp/, src/imap/, src/pop3/) nor the app; only
//      their routes use plugins (authentication).
//   6. Web: features never import each other, and only lib/http/ talks HTTP (fetch, XHR, SSE).
// `node scripts/lint-architecture.mjs [root]` prints each violation as `file:line rule: detail`
// and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const server = 'apps/server/src';
const web = 'apps/web/src';
const repositories = `${server}/db/repositories`;

/** Each table and the one repository file that queries it. */
export const TABLE_OWNERS = {
  system_accounts: 'system-account-repo.ts',
  sessions: 'session-repo.ts',
  login_history: 'login-history-repo.ts',
  api_keys: 'api-key-repo.ts',
  settings: 'setting-repo.ts',
  personal_settings: 'personal-setting-repo.ts',
  domains: 'domain-repo.ts',
  domain_dkim_keys: 'dkim-key-repo.ts',
  domain_dns_providers: 'dns-provider-repo.ts',
  mailboxes: 'mailbox-repo.ts',
  retired_addresses: 'mailbox-repo.ts',
  messages: 'message-repo.ts',
  mail_folders: 'folder-repo.ts',
  raw_messages: 'raw-message-repo.ts',
  message_raw_chunks: 'raw-message-repo.ts',
  mail_filters: 'filter-repo.ts',
  ip_blacklist: 'blacklist-repo.ts',
  cards: 'card-repo.ts',
  orders: 'order-repo.ts',
  uploads: 'upload-repo.ts',
  upload_chunks: 'upload-repo.ts',
  sent_messages: 'sent-message-repo.ts',
  sent_message_chunks: 'sent-message-repo.ts',
  outbound_queue: 'outbound-queue-repo.ts',
  webhooks: 'webhook-repo.ts',
  webhook_deliveries: 'webhook-repo.ts',
  rate_counters: 'rate-counter-repo.ts',
  mail_forwards: 'forward-repo.ts',
  acme_challenges: 'acme-challenge-repo.ts',
};

/** Kysely calls that start a query on a table (their first argument names it). */
const QUERY_STARTS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
]);
/** Calls that add a table to a query already started. */
const JOINS = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin', 'using']);
const HTTP_PRIMITIVES = new Set(['fetch', 'XMLHttpRequest', 'EventSource']);

/** Every violation under `root`, as `file:line rule: detail`. */
export function checkArchitecture(root) {
  const violations = [];
  const report = (file, node, source, rule, detail) => {
    const line = node ? source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 : 1;
    violations.push(`${file}:${line} ${rule}: ${detail}`);
  };

  function listFiles(dir) {
    const absolute = join(root, dir);
    if (!existsSync(absolute)) return [];
    const files = [];
    for (const entry of readdirSync(absolute)) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      const path = join(absolute, entry);
      if (statSync(path).isDirectory()) files.push(...listFiles(join(dir, entry)));
      else if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith('.d.ts'))
        files.push(join(dir, entry).split(sep).join('/'));
    }
    return files;
  }

  const isTest = (file) => /\.test\.tsx?$/.test(file) || file.includes('/test/') || file.includes('/e2e/');

  /** The file a relative import points at, or null for packages and node: builtins. */
  function resolveImport(from, specifier) {
    if (!specifier.startsWith('.') && !specifier.startsWith('@/')) return null;
    const base = specifier.startsWith('@/') ? join(web, specifier.slice(2)) : join(dirname(from), specifier);
    const stem = base.replace(/\.(js|jsx|ts|tsx|mjs)$/, '');
    for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`]) {
      if (existsSync(join(root, candidate))) return candidate.split(sep).join('/');
    }
    return null;
  }

  /** `apps/server/src/modules/mail/x.ts` → `server:modules/mail`; web features likewise. */
  function moduleOf(file) {
    let match = file.match(/^apps\/server\/src\/modules\/([^/]+)\//);
    if (match) return `server:modules/${match[1]}`;
    match = file.match(/^apps\/web\/src\/features\/([^/]+)\//);
    if (match) return `web:features/${match[1]}`;
    return null;
  }

  const files = [...listFiles(server), ...listFiles(web)];
  const graph = new Map();
  const moduleGraph = new Map();

  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3);
    const edges = [];
    const test = isTest(file);
    const fromModule = moduleOf(file);
    const inDb = file.startsWith(`${server}/db/`);
    const repository = file.startsWith(`${repositories}/`) ? file.slice(repositories.length + 1) : null;

    const visit = (node) => {
      // Imports and re-exports.
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
        const specifier = node.moduleSpecifier.text;
        const typeOnly = node.importClause?.isTypeOnly || node.isTypeOnly;
        const target = resolveImport(file, specifier);
        checkImport(file, source, node, specifier, target, test);
        if (target && !typeOnly) edges.push(target);
        if (target && !test) {
          const toModule = moduleOf(target);
          if (fromModule && toModule && fromModule !== toModule) {
            if (!moduleGraph.has(fromModule)) moduleGraph.set(fromModule, new Set());
            moduleGraph.get(fromModule).add(toModule);
          }
        }
        if (!test && !inDb && file.startsWith(server) && specifier === 'kysely') {
          const names = node.importClause?.namedBindings;
          if (names && ts.isNamedImports(names)) {
            for (const element of names.elements) {
              if (!element.isTypeOnly && !typeOnly && element.name.text === 'sql') {
                report(
                  file,
                  node,
                  source,
                  'query-outside-repository',
                  "imports kysely's sql: raw SQL belongs in src/db/",
                );
              }
            }
          }
        }
      }
      if (ts.isCallExpression(node) && !test && file.startsWith(server)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : null;
        if (name && (QUERY_STARTS.has(name) || JOINS.has(name))) {
          const first = node.arguments[0];
          const table =
            first && ts.isStringLiteralLike(first) ? first.text.split(/\s+as\s+|\s/)[0].split('.')[0] : null;
          if (!inDb) {
            report(
              file,
              node,
              source,
              'query-outside-repository',
              `${name}(${table ? `'${table}'` : '…'}) outside src/db/`,
            );
          } else if (
            repository &&
            QUERY_STARTS.has(name) &&
            table &&
            TABLE_OWNERS[table] &&
            TABLE_OWNERS[table] !== repository
          ) {
            report(
              file,
              node,
              source,
              'table-owner',
              `${name}('${table}') belongs in db/repositories/${TABLE_OWNERS[table]}`,
            );
          }
        }
      }
      if (!test && file.startsWith(web) && !file.startsWith(`${web}/lib/http/`)) {
        if (
          (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
          ts.isIdentifier(node.expression) &&
          HTTP_PRIMITIVES.has(node.expression.text)
        ) {
          report(
            file,
            node,
            source,
            'http-outside-lib-http',
            `${node.expression.text} outside src/lib/http/`,
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, edges);
  }

  function checkImport(file, source, node, specifier, target, test) {
    if (file.startsWith(`${server}/protocols/`) && !test) {
      if (target && !target.startsWith(`${server}/protocols/`)) {
        report(
          file,
          node,
          source,
          'protocol-imports-feature',
          `${specifier}: a protocol imports only protocols/`,
        );
      }
    }
    if (!target || test) return;
    const fromModule = moduleOf(file);
    const toModule = moduleOf(target);
    if (toModule && fromModule !== toModule) {
      const index = /\/(modules|features)\/[^/]+\/index\.tsx?$/.test(target);
      if (fromModule?.startsWith('web:')) {
        report(
          file,
          node,
          source,
          'feature-imports-feature',
          `${specifier}: web features never import each other`,
        );
      } else if (!index && toModule.startsWith('server:')) {
        // Web routes import feature internals directly: barrel files would defeat per-route chunks.
        report(file, node, source, 'module-internals', `${specifier}: import the module's index.ts`);
      }
    }
    if (fromModule?.startsWith('server:') || file.startsWith(`${server}/db/`)) {
      // Routes are the HTTP edge of a module: they alone may use the authentication plugin.
      const routes = file.endsWith('-routes.ts');
      const forbidden = [
        'smtp/',
        'imap/',
        'pop3/',
        ...(routes ? [] : ['plugins/']),
        'app.ts',
        'server.ts',
        'program.ts',
        'services.ts',
        'https-server.ts',
      ];
      const lower = forbidden.find((prefix) => target.startsWith(`${server}/${prefix}`));
      if (lower)
        report(
          file,
          node,
          source,
          'layer',
          `${specifier}: modules and the database layer never import ${lower}`,
        );
    }
    if (file.startsWith(`${server}/db/`) && target.startsWith(`${server}/modules/`)) {
      report(file, node, source, 'layer', `${specifier}: the database layer imports no module`);
    }
  }

  /** Tarjan's strongly connected components: every component of two or more nodes is a cycle. */
  function cycles(edges) {
    let index = 0;
    const stack = [];
    const state = new Map();
    const found = [];
    const connect = (node) => {
      state.set(node, { index, low: index, onStack: true });
      index += 1;
      stack.push(node);
      for (const next of edges.get(node) ?? []) {
        if (!state.has(next)) {
          connect(next);
          state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
        } else if (state.get(next).onStack) {
          state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
        }
      }
      if (state.get(node).low === state.get(node).index) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          state.get(member).onStack = false;
          component.push(member);
        } while (member !== node);
        if (component.length > 1) found.push(component.sort());
      }
    };
    for (const node of edges.keys()) if (!state.has(node)) connect(node);
    return found;
  }

  for (const component of cycles(graph)) {
    violations.push(`${component[0]}:1 import-cycle: ${component.join(' → ')}`);
  }
  for (const component of cycles(moduleGraph)) {
    violations.push(`${component[0]}:1 module-cycle: ${component.join(' ↔ ')}`);
  }

  return violations.sort();
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkArchitecture(root);
  if (violations.length > 0) {
    console.error(violations.join('\n'));
    console.error(`${violations.length} architecture rule violation(s); the rules are in ARCHITECTURE.md`);
    process.exit(1);
  }
  console.log('architecture rules: no violations');
}
