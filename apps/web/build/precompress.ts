import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What the server sends compressed: text. Images and fonts are compressed formats already. */
const TEXT_FILE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Writes `<file>.br` and `<file>.gz` when they are smaller than the file itself. */
async function precompressFile(file: string): Promise<void> {
  const bytes = await readFile(file);
  const [brotliBytes, gzipBytes] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  if (brotliBytes.length < bytes.length) await writeFile(`${file}.br`, brotliBytes);
  if (gzipBytes.length < bytes.length) await writeFile(`${file}.gz`, gzipBytes);
}

/**
 * Compresses every text file of the build once, at the highest levels, so that the server sends the
 * `.br` or `.gz` beside a file (by Accept-Encoding, plugins/web-client.ts) instead of compressing
 * the same bytes again on every request, at the quick levels that would allow.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'youju:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => TEXT_FILE.test(file));
      await Promise.all(files.map(precompressFile));
    },
  };
}
