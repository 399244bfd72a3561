#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self time by package/file and by function, and
// inclusive time of the heaviest functions. Usage: node bench/tools/profile-summary.mjs FILE [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
}
const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
function where(node) {
  const url = node.callFrame.url || '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return url;
  if (!url) return `(${node.callFrame.functionName || 'native'})`;
  return url.replace(/^.*\/(apps|src)\//, '$1/');
}
const byWhere = new Map();
const byFunction = new Map();
const inclusive = new Map();
for (const [id, us] of self) {
  const node = nodes.get(id);
  const w = where(node);
  byWhere.set(w, (byWhere.get(w) ?? 0) + us);
  const f = `${node.callFrame.functionName || '(anonymous)'} ${w}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(f, (byFunction.get(f) ?? 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const n = nodes.get(cur);
    const key = `${n.callFrame.functionName || '(anonymous)'} ${where(n)}:${n.callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
const pct = (us) =>
  `${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms`;
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
};
console.log(`total sampled ${(totalUs / 1000).toFixed(0)} ms`);
show('self time by package / file', byWhere);
show('self time by function', byFunction);
show('inclusive time by function', inclusive);
