import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

const SHELL_FILE = new URL('./home-shell.html', import.meta.url);
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * Writes `home.html` beside `index.html`: the same page with /home's static first paint
 * (`home-shell.html`) inside #root. A phone then paints /home's header and hero as soon as the HTML
 * and the style sheet have arrived, instead of after React and antd have loaded and run; React
 * replaces it with the same content on its first commit. Only /home (and /, which goes there) gets
 * it: the other routes keep the empty index.html, which shows nothing wrong before the app starts.
 */
export function homeShell(): Plugin {
  return {
    name: 'youju:home-shell',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset' || typeof index.source !== 'string') {
        this.error('home-shell: the build wrote no index.html');
      }
      const html = index.source;
      if (!html.includes(EMPTY_ROOT)) this.error(`home-shell: index.html has no ${EMPTY_ROOT}`);
      const shell = (await readFile(SHELL_FILE, 'utf8'))
        .replace(/<!--[\s\S]*?-->/g, '')
        .replace(/>\s+</g, '><')
        .trim();
      this.emitFile({
        type: 'asset',
        fileName: 'home.html',
        source: html.replace(EMPTY_ROOT, `<div id="root">${shell}</div>`),
      });
    },
  };
}
