#!/usr/bin/env node
// One-off refactoring aid: gives every server module a public index.ts that re-exports what other
// code imports from it, and points those imports at the index. Run, then `biome format --write`.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const src = 'apps/server/src';

function listFiles(dir) {
  const files = [];
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (statSync(join(root, path)).isDirectory()) files.push(...listFiles(path));
    else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) files.push(path.split(sep).join('/'));
  }
  return files;
}

const moduleOf = (file) => file.match(/^apps\/server\/src\/modules\/([^/]+)\//)?.[1] ?? null;
const exportsByModule = new Map(); // module -> Map(file -> {values:Set, types:Set})
const edits = new Map(); // file -> [{start,end,text}]

for (const file of listFiles(src)) {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    if (!node.moduleSpecifier) continue;
    const specifier = node.moduleSpecifier.text;
    if (!specifier.startsWith('.')) continue;
    const target = join(dirname(file), specifier.replace(/\.js$/, '.ts')).split(sep).join('/');
    const toModule = moduleOf(target);
    if (!toModule || toModule === moduleOf(file) || target.endsWith('/index.ts')) continue;
    if (!existsSync(join(root, target))) continue;
    const clause = ts.isImportDeclaration(node) ? node.importClause : null;
    const named = ts.isImportDeclaration(node) ? clause?.namedBindings : node.exportClause;
    if (!named || (!ts.isNamedImports(named) && !ts.isNamedExports(named)) || clause?.name) {
      console.error(`skipped (not named imports): ${file}: ${node.getText(source)}`);
      continue;
    }
    const wholeType = clause?.isTypeOnly || (ts.isExportDeclaration(node) && node.isTypeOnly);
    if (!exportsByModule.has(toModule)) exportsByModule.set(toModule, new Map());
    const perFile = exportsByModule.get(toModule);
    if (!perFile.has(target)) perFile.set(target, { values: new Set(), types: new Set() });
    for (const element of named.elements) {
      const name = (element.propertyName ?? element.name).text;
      (wholeType || element.isTypeOnly ? perFile.get(target).types : perFile.get(target).values).add(name);
    }
    const index = `${src}/modules/${toModule}/index.js`;
    let path = relative(dirname(file), index).split(sep).join('/');
    if (!path.startsWith('.')) path = `./${path}`;
    if (!edits.has(file)) edits.set(file, []);
    edits.get(file).push({
      start: node.moduleSpecifier.getStart(source),
      end: node.moduleSpecifier.end,
      text: `'${path}'`,
    });
  }
}

for (const [module, perFile] of exportsByModule) {
  const indexPath = join(root, src, 'modules', module, 'index.ts');
  const lines = [`/** The public face of the ${module} module: other code imports only from here. */`];
  const seen = new Map();
  for (const [file, { values, types }] of [...perFile].sort()) {
    const from = `./${file.split('/').pop().replace(/\.ts$/, '.js')}`;
    for (const name of [...values, ...types]) {
      if (seen.has(name) && seen.get(name) !== file) console.error(`name clash in ${module}: ${name}`);
      seen.set(name, file);
    }
    const onlyTypes = [...types].filter((name) => !values.has(name)).sort();
    if (values.size) lines.push(`export { ${[...values].sort().join(', ')} } from '${from}';`);
    if (onlyTypes.length) lines.push(`export type { ${onlyTypes.join(', ')} } from '${from}';`);
  }
  if (existsSync(indexPath)) console.error(`exists, not overwritten: ${indexPath}\n${lines.join('\n')}`);
  else writeFileSync(indexPath, `${lines.join('\n')}\n`);
}

for (const [file, list] of edits) {
  let text = readFileSync(join(root, file), 'utf8');
  for (const edit of list.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  writeFileSync(join(root, file), text);
}
console.log(`${exportsByModule.size} indexes, ${edits.size} files rewritten`);
