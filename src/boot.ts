// The page's entry (index.html). What the shell and the home page are drawn with: Mantine's baseline and
// variables, and our theme's. Mantine's component styles arrive with the first part that uses Mantine
// (src/theme/mantine-root.tsx). Mantine's own rules all sit in the `mantine` cascade layer, as the
// component styles will, so that a baseline rule such as `button { font: inherit }` cannot override a
// component; the theme's variables stay outside it, so they win over the defaults that the component
// styles declare again.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import 'virtual:theme-variables.css';
import './theme/first-paint.css';
import { followSystemColorScheme } from './theme/color-scheme';
import { askFirstCallsEarly, storedSessionToken } from './services/early-answers';

/**
 * Paint first, then load and run the app (src/main.tsx) (issue 12). A prerendered page is complete without
 * it: on a slow phone the HTML (with its styles inline) paints as soon as it arrives, and the scripts
 * neither share the network with it nor hold the first frame back while ~340 KB of JavaScript evaluates.
 * requestAnimationFrame runs just before the next paint; the task queued from it runs after that paint.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * A new task, so the browser can paint and answer input in between (src/app/boot/main-thread.ts has the app's
 * version; importing it here would put the app's chunk before the first paint).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** How many preload links are added in one task: each costs about 2.5 ms of a phone's main thread (4x slower than here). */
const PRELOADS_PER_TASK = 12;

/**
 * The prerendered page lists the scripts its route needs (scripts/lib/prerender.ts) as links the browser
 * does not fetch; now they all download at once, instead of each chunk after the one that imports it. A
 * dozen per task: a public page lists 20 to 30, and /account's ~50 held a phone's main thread for ~120 ms in
 * one task (issue 32 item 4; the /account shell now lists its scripts as real preloads in its HTML). The first
 * dozen start with React's chunks, which are imported next, meanwhile.
 */
async function preloadRouteScripts() {
  const hints = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload-after-paint"]')];
  for (let start = 0; start < hints.length; start += PRELOADS_PER_TASK) {
    if (start > 0) await nextTask();
    for (const hint of hints.slice(start, start + PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = hint.href;
      document.head.append(link);
    }
  }
}

// A signed-in page's first answers (the session's check, the account's lists) are asked for now, and travel
// beside the app's code instead of after it (issue 32 item 4); the app takes them when it asks.
askFirstCallsEarly(window.location.pathname, storedSessionToken());
// Mantine's colours and borders are declared per colour scheme: set it before the page paints, or the
// first frame draws borderless cards that gain their border (and shift what follows) a moment later.
followSystemColorScheme();
await afterNextPaint();
void preloadRouteScripts();
// Issue 25: the app's code evaluated in two tasks, not one: React (and the libraries of its chunk) first,
// then, after a yield that lets the browser paint and answer input, the app and the route's code.
await import('react-dom/client');
await nextTask();
// The public pages, prerendered without the router, hydrate without it (src/main-public.tsx, issues 25 and
// 32); the account area, the 404 page and the browser-only pages start the router's app.
if (document.getElementById('root')?.dataset.entry === 'public') await import('./main-public');
else await import('./main');
