import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { DEFAULT_PERMISSION_KEY } from '../../packages/contract/src/permission-cipher.ts';
import { antdStaticStyle } from './build/antd-static-style.tsx';
import { precompress } from './build/precompress.ts';

const contractSource = fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url));

/**
 * How the client is cut into files, beside the one per screen (the router loads screens lazily):
 * - react-vendor: React and the router, which change rarely and so stay cached across releases;
 * - app-shell: the rest of what the first script imports, in one file. Left to itself the bundler
 *   gives each set of screens sharing a module a file of its own, and the first page loaded some
 *   forty, many of them under a kilobyte, each with its request and headers. Only what the shell
 *   uses goes in (not the dependencies of everything it touches), so tree-shaking still keeps the
 *   contract's TypeBox schemas out.
 * echarts stays in the lazy chunks of the screens that draw charts.
 */
const chunkGroups = [
  {
    name: 'react-vendor',
    test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
    priority: 2,
  },
  { name: 'app-shell', tags: ['$initial' as const], includeDependenciesRecursively: false, priority: 1 },
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), antdStaticStyle(), precompress()],
  resolve: {
    alias: { '@youju/contract': contractSource },
  },
  define: {
    // The client decrypts getVar's permissionData with the key the server encrypts it with: the
    // PERMISSION_KEY environment variable, read here at build time and by the server when it starts.
    __PERMISSION_KEY__: JSON.stringify(process.env.PERMISSION_KEY ?? DEFAULT_PERMISSION_KEY),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // The contract's schema modules only build TypeBox schemas for the server; the client uses their
        // types alone, so declaring them side-effect free keeps TypeBox out of the bundle. antd's
        // @rc-component parts declare nothing either, and their modules only define components: without
        // this, one context that every tooltip imports kept the whole form library on the first page.
        moduleSideEffects: [
          { test: /packages[\\/]contract[\\/]src[\\/]schemas[\\/]/, sideEffects: false },
          { test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false },
        ],
      },
      output: {
        codeSplitting: { groups: chunkGroups },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
