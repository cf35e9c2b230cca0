import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import type { Plugin } from 'vite';
import { clientConfigFromEnv, injectClientConfig } from './contract/client-config.ts';
import { themeVariablesCss } from './src/theme/theme-variables.ts';
import { prerenderAndCompress } from './scripts/lib/prerender.ts';

const apiPort = process.env.API_PORT ?? process.env.PORT ?? '8080';

/** `npm run dev`: Vite serves index.html, so it writes the runtime client config the API writes in production. */
function devClientConfig(): Plugin {
  return {
    name: 'veil-dev-client-config',
    apply: 'serve',
    transformIndexHtml: (html) => injectClientConfig(html, clientConfigFromEnv(process.env)),
  };
}

/**
 * `import 'virtual:theme-variables.css'`: the theme's CSS variables, computed from src/theme/theme.ts when
 * the site is built, so pages render in the theme before any Mantine code runs.
 */
function themeVariables(): Plugin {
  const id = 'virtual:theme-variables.css';
  const resolvedId = `\0${id}`;
  return {
    name: 'veil-theme-variables',
    resolveId: (source) => (source === id ? resolvedId : undefined),
    load: (loadedId) => (loadedId === resolvedId ? themeVariablesCss() : undefined),
  };
}

/**
 * After the browser build: prerender the public pages and compress every file (scripts/lib/prerender.ts).
 * Not in the Node build of the prerender entry that this step itself runs.
 */
function prerenderPages(): Plugin {
  let root = '';
  let outDir = '';
  let ssr = false;
  return {
    name: 'veil-prerender',
    apply: 'build',
    configResolved: (config) => {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      handler: async () => {
        if (!ssr) await prerenderAndCompress(root, outDir);
      },
    },
  };
}

export default defineConfig({
  plugins: [
    // Must come before react(): it generates src/routeTree.gen.ts and splits every route into its own chunk.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
    react(),
    themeVariables(),
    devClientConfig(),
    prerenderPages(),
  ],
  server: {
    // `npm run dev`: Vite serves the SPA with hot reload and forwards /api to the API process.
    proxy: { '/api': `http://127.0.0.1:${apiPort}` },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // scripts/size.mjs reads the manifest to know which chunks a page loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The libraries every page starts with, in one chunk: left alone, rolldown splits each library
            // the lazy pages share into a chunk of its own, all on the first load, each gzipped apart.
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|xstate|@xstate|use-sync-external-store)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
