/**
 * The relay agent as compiled JavaScript (issue 47 item 1): `npm run build:relay` writes dist-relay/, and
 * `node dist-relay/main.js` is what a VPN server runs. Everything it imports (relay/, contract/ and zod) is
 * bundled in, so a server needs Node and these files only: no node_modules, no TypeScript.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  envDir: false,
  logLevel: 'warn',
  ssr: { noExternal: true },
  build: {
    ssr: 'relay/main.ts',
    outDir: process.env.RELAY_BUILD_OUT_DIR ?? resolve(import.meta.dirname, 'dist-relay'),
    emptyOutDir: true,
    target: 'node22',
    sourcemap: true,
    minify: false,
    rollupOptions: { output: { format: 'es', entryFileNames: 'main.js', chunkFileNames: '[name]-[hash].js' } },
  },
});
