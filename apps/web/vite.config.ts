import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { DEFAULT_PERMISSION_KEY } from '../../packages/contract/src/permission-cipher.ts';

const contractSource = fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url));

/** Vendor groups that the first page needs anyway; echarts is left out on purpose so it stays in its lazy chunk. */
const vendorGroups = [
  {
    name: 'react-vendor',
    test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
  },
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
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
        // types alone, so declaring them side-effect free keeps TypeBox out of the bundle.
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]schemas[\\/]/, sideEffects: false }],
      },
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
