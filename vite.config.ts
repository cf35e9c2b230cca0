import { resolve } from 'node:path';
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import type { Plugin } from 'vite';
import { clientConfigFromEnv, injectClientConfig } from './contract/client-config.ts';
import { themeVariablesCss } from './src/theme/theme-variables.ts';
import { prerenderAndCompress } from './scripts/lib/prerender.ts';
import { placeholderRefusal } from './scripts/lib/placeholder-urls.ts';

/**
 * Mantine declares colours and borders per colour scheme (`[data-mantine-color-scheme=light] .card {…}`),
 * and src/boot.ts sets that attribute only once it runs: a page laid out before then drew its cards and
 * header without their borders and shifted by a pixel when they came (CLS 0.007 on /signin, issue 12).
 * In every stylesheet the light rules also apply while no scheme is set; `:where()` adds no specificity, so
 * they win and lose exactly as before. (A dark system already gets its dark background: first-paint.css.)
 */
function lightSchemeBeforeScripts(): Plugin {
  const light = /\[data-mantine-color-scheme=(["']?)light\1\]/g;
  return {
    name: 'veil-light-scheme-before-scripts',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.css($|\?)/.test(id)) return undefined;
      return { code: code.replace(light, ':is([data-mantine-color-scheme=light], :where(:root:not([data-mantine-color-scheme])))'), map: null };
    },
  };
}

/**
 * The app's own modules that the two entries import statically, as two chunks: `site`, what both entries
 * import (the frame, the app's actors, the session handle), and `app`, the rest of what src/main.tsx needs
 * (the router's tree). Started by a dynamic import (src/boot.ts), an entry would otherwise see every module
 * it shares with a lazy route split into a chunk of its own, each gzipped apart and each a request (~3 KB
 * more on the home page's first load). What only the public pages' entry imports (src/main-public.tsx: their
 * tree) is left to rolldown, and so is each public page's module (a dynamic import), so a page loads no other
 * page's code.
 * Read from the module graph once it is complete.
 */
function appChunks() {
  let getModuleInfo: ((id: string) => { importedIds: readonly string[] } | null) | null = null;
  let members: { beforePaint: Set<string>; site: Set<string>; app: Set<string> } | null = null;
  // Not the entry itself: an entry starts the app when its module is evaluated, so it must not ride in a
  // chunk that the other entry's page loads.
  const staticImportsOf = (entry: string) => {
    const found = new Set<string>();
    const visit = (id: string) => {
      if (found.has(id) || id.includes('node_modules') || id.startsWith('\0')) return;
      found.add(id);
      for (const imported of getModuleInfo?.(id)?.importedIds ?? []) visit(imported);
    };
    const entryId = resolve(import.meta.dirname, entry);
    for (const imported of getModuleInfo?.(entryId)?.importedIds ?? []) visit(imported);
    found.delete(entryId);
    return found;
  };
  const collect = () => {
    // What the page's entry script (src/boot.ts) imports runs before the first paint, in a chunk of its
    // own: grouped with the app's modules (src/services/storage.ts), it would bring their chunk before the paint.
    const beforePaint = staticImportsOf('src/boot.ts');
    const publicPages = staticImportsOf('src/main-public.tsx');
    const app = new Set([...staticImportsOf('src/main.tsx')].filter((id) => !beforePaint.has(id)));
    return { beforePaint, site: new Set([...publicPages].filter((id) => app.has(id))), app };
  };
  const plugin: Plugin = {
    name: 'veil-app-chunk',
    apply: 'build',
    buildEnd() {
      getModuleInfo = (id) => this.getModuleInfo(id);
      members = null;
    },
  };
  return {
    plugin,
    beforePaint: (id: string) => (members ??= collect()).beforePaint.has(id),
    site: (id: string) => (members ??= collect()).site.has(id),
    app: (id: string) => (members ??= collect()).app.has(id),
  };
}
const chunks = appChunks();

/** A production build refuses example.com placeholders for the brand's addresses (scripts/lib/placeholder-urls.ts). */
function refusePlaceholderUrls(): Plugin {
  return {
    name: 'veil-refuse-placeholder-urls',
    apply: 'build',
    configResolved(config) {
      if (config.mode !== 'production' || config.build.ssr) return;
      const refusal = placeholderRefusal({ ...loadEnv(config.mode, config.envDir || config.root, 'VITE_'), ...process.env });
      if (refusal) throw new Error(refusal);
    },
  };
}

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
    refusePlaceholderUrls(),
    prerenderPages(),
    chunks.plugin,
    lightSchemeBeforeScripts(),
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
    modulePreload: {
      // The public entry loads the one page its prerendered HTML is (src/app/pages/public-pages.ts), and that
      // HTML already lists the page's scripts for src/boot.ts to preload (scripts/lib/prerender.ts): the lists
      // of every page's chunks would only lengthen the entry that every public page loads first (1.3 KB gzip).
      // Their stylesheets stay listed (Vite keeps them in any case); the page has them inline already.
      resolveDependencies: (_file, deps, { hostId }) => (/(^|\/)main-public-[^/]+\.js$/.test(hostId) ? [] : deps),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What src/boot.ts needs before the first paint (Vite's preload helper, the modules it imports), in
            // a chunk of its own: it must not import the app for it. The first group, so no later group
            // takes a module of it along as a dependency of theirs.
            { name: 'first-paint', test: (id) => /vite[\\/]preload-helper/.test(id) || chunks.beforePaint(id) },
            // The libraries every page starts with, in one chunk: left alone, rolldown splits each library
            // the lazy pages share into a chunk of its own, all on the first load, each gzipped apart.
            // React apart from the router: the public pages hydrate without the router (src/main-public.tsx).
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The selector hook (use-sync-external-store) that XState's React bindings and the router's store use,
            // and no public page's first load: in React's chunk it weighed 0.5 KB gzip on the home page. Its
            // own group, before both: in XState's, the router's chunk would import XState's, so every page with
            // the router would evaluate XState with it, before the page needs its session.
            { name: 'selector-hook', test: /node_modules[\\/]use-sync-external-store[\\/]/ },
            { name: 'router', test: /node_modules[\\/]@tanstack[\\/]/ },
            // XState, in one chunk of its own: the session loads it once the page is interactive
            // (src/app/actors/session-handle.ts), and every flow after that shares it. The app's actor system
            // (its root and the screens' hook) rides with it: a chunk of its own would lengthen the
            // first load's lists of what each lazy import needs.
            // machines/invoke-call.ts too: a helper the machines of several lazy chunks share, 0.1 KB, which
            // alone would be a request of its own.
            { name: 'xstate', test: /node_modules[\\/](xstate|@xstate)[\\/]|src[\\/]app[\\/]actors[\\/]app-system\.ts$|machines[\\/]invoke-call\.ts$/ },
            // Before the app's: a module both entries import belongs to the site chunk (the earlier group wins).
            { name: 'site', test: chunks.site },
            { name: 'app', test: chunks.app },
            // The session actor, loaded at idle on every page (src/app/actors/session-handle.ts): its runtime, machine
            // and services in one request instead of three. After the first-load groups, so what those hold
            // (the session's context, read before the actor loads) stays in them.
            { name: 'session', test: /src[\\/]app[\\/]flows[\\/]session-(runtime|services)\.ts$|machines[\\/]session\.ts$/ },
          ],
        },
      },
    },
  },
});
