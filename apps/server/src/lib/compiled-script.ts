import { fileURLToPath } from 'node:url';

/**
 * The compiled JavaScript file `sibling` beside the module at `moduleUrl`, for a worker thread or a
 * child process to run. Under vitest the server runs from its TypeScript sources, which neither can
 * load, so there the same file in dist/ is given (the server test suite compiles the server before
 * it starts: test/support/compile-server.ts).
 */
export function compiledScript(moduleUrl: string, sibling: string): string {
  const file = fileURLToPath(new URL(sibling, moduleUrl));
  if (!fileURLToPath(moduleUrl).endsWith('.ts')) return file;
  const at = file.lastIndexOf('/src/');
  return `${file.slice(0, at)}/dist/${file.slice(at + '/src/'.length)}`;
}
