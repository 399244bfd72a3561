/// <reference types="vite/client" />

/** Key of the permission-payload cipher, baked in at build time by vite.config.ts `define`. */
declare const __PERMISSION_KEY__: string | undefined;
