/**
 * The API as compiled JavaScript (issue 32, item 3): `npm run build` writes it to dist-api/ after the
 * website, and `npm run start:api` (node dist-api/main.js) is what production runs. Our own modules
 * (server/, contract/) are bundled into a few files, so start-up reads and compiles no TypeScript and
 * resolves a handful of modules instead of a hundred; packages stay in node_modules (SSR's default), except
 * drizzle-orm, bundled in too: Node's ESM loader parses its 179 KB package.json again for each of the ~100
 * files it loads, ~0.65 s of a start's CPU (1.85 s to /api/live on PostgreSQL, 1.18 s bundled).
 * What start-up does not need is split into chunks loaded on first use (the mail templates) or only when
 * configured (the OTel SDK, Stripe): the dynamic imports of server/main.ts, app.ts and mail-worker.ts.
 *
 * Every chunk sits at dist-api/'s top, beside migrations/ (copied below), so the migrations are found
 * from whichever chunk server/db/database.ts lands in (`import.meta.dirname`).
 */
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const outDir = resolve(import.meta.dirname, 'dist-api');

function copyMigrations(): Plugin {
  return {
    name: 'veil-copy-migrations',
    apply: 'build',
    closeBundle() {
      cpSync(resolve(import.meta.dirname, 'server/db/migrations'), resolve(outDir, 'migrations'), { recursive: true });
    },
  };
}

export default defineConfig({
  // Not the website's: no public/ copy, no .env of the browser build.
  publicDir: false,
  envDir: false,
  logLevel: 'warn',
  plugins: [copyMigrations()],
  ssr: { noExternal: ['drizzle-orm'] },
  build: {
    ssr: 'server/main.ts',
    outDir,
    emptyOutDir: true,
    target: 'node22',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      output: {
        format: 'es',
        entryFileNames: 'main.js',
        chunkFileNames: '[name]-[hash].js',
      },
    },
  },
});
