import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { splitByIsolation } from './tests/support/test-isolation.ts';
import { machineSlowness } from './scripts/lib/machine-speed.mjs';
import { onThisMachine } from './tests/support/machine-slowness.ts';

/**
 * drizzle-orm from its CommonJS build in the test processes. Node's ESM loader looks up the package scope
 * of every file it loads, and for drizzle-orm that means parsing its 179 KB package.json again for each of
 * its ~100 files: 0.6 to 0.9 s of CPU in every test file's process (Node 22 and 24), against ~0.2 s for
 * the same modules through require. Both builds are the same code; the API's own processes are unchanged.
 */
function drizzleFromCommonJs(): Plugin {
  const require = createRequire(import.meta.url);
  return {
    name: 'veil-drizzle-from-commonjs',
    enforce: 'pre',
    resolveId: (id) => (id === 'drizzle-orm' || id.startsWith('drizzle-orm/') ? require.resolve(id) : null),
  };
}

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The timeouts below are in the seconds of the machine the budgets were set on, multiplied on a slower one
 * (scripts/lib/machine-speed.mjs; scripts/test.mjs measures it once, a direct `vitest` run here). A timeout
 * says a test is stuck, not that it is slow: tests/budgets.ts holds the suite to its time. Measured only when
 * Vitest itself loads this file (it sets VITEST first): other tools read it too (knip, on every lint).
 */
if (process.env.VITEST) machineSlowness(root);

/** The files in `dirs` that change what the files after them in a worker would see (tests/support/test-isolation.ts). */
const isolatedFilesIn = (...dirs: string[]) => dirs.flatMap((dir) => splitByIsolation(root, dir).isolated);
const isolatedServerFiles = isolatedFilesIn('tests/server');
const isolatedUnitFiles = isolatedFilesIn('tests/machines', 'tests/unit');
const isolatedComponentFiles = isolatedFilesIn('tests/components');

/** What the two unit projects share: machines and pure modules in Node. */
const unitProject = {
  environment: 'node' as const,
  // Vitest's default, scaled as the others' are: a CPU-bound test exceeded 5 s on a machine at ×3.56.
  testTimeout: onThisMachine(5_000),
};

/** What the two component projects share: React screens in jsdom. */
const componentsProject = {
  environment: 'jsdom' as const,
  setupFiles: ['tests/components/setup.ts'],
  testTimeout: onThisMachine(20_000),
};

/** What the two server projects share: the API against real databases and the Auth emulator. */
const serverProject = {
  environment: 'node' as const,
  // Starts one Firebase Auth emulator (TEST_AUTH_EMULATOR_PORT) and a migrated PGlite for every server test
  // file; named by both server projects, started once (see the file).
  globalSetup: ['tests/server/global-setup.ts'],
  testTimeout: onThisMachine(60_000),
  hookTimeout: onThisMachine(120_000),
};

/**
 * Eight projects, one command (`npm test`):
 *  - unit: machines and pure modules in node (fast, no DOM, no services), a worker running file after file
 *    (`isolate: false`); unit-isolated: those of them that mock, stub or fake the clock (derived, as below);
 *  - relay: the relay agent (relay/) against stand-ins, and in network namespaces with the real API;
 *  - server: the API against PGlite (and PostgreSQL when reachable) and the Firebase Auth emulator, a worker
 *    running file after file with the modules it has loaded (`isolate: false`);
 *  - server-isolated: the server files that mock a module or change the process (derived, above), each in
 *    a process of its own;
 *  - components: React screens in jsdom with Mantine's test environment, without isolation as unit;
 *    components-isolated: those that mock or stub;
 *  - e2e: a real Chromium against the built site and the whole local stack (slow: two files at a time, beside
 *    the rest), each worker keeping its Chromium from file to file.
 */
export default defineConfig({
  test: {
    // Files at once, outside the e2e project (which has its own number, below, and runs after the others).
    // Vitest's default is one fewer than the cores: on this project's two-core machines, one file at a time,
    // while most of a server file's time is spent waiting (for the Auth emulator, job polls, a mail server, a
    // timeout it provokes) with the CPU idle. Measured in docs/performance.md ("Test suite time").
    maxWorkers: 4,
    // The default output, then the ten slowest files (tests/support/slowest-files-reporter.ts).
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
    projects: [
      {
        test: {
          ...unitProject,
          name: 'unit',
          include: ['tests/machines/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...isolatedUnitFiles],
          // As the server files: a worker runs file after file with what it has imported (xstate, zod, the
          // machines), instead of a new process per file; ~60 files, most of them a few milliseconds of tests.
          isolate: false,
        },
      },
      {
        test: {
          ...unitProject,
          name: 'unit-isolated',
          include: isolatedUnitFiles,
        },
      },
      {
        test: {
          name: 'relay',
          environment: 'node',
          // The relay agent (relay/): its own tests against a contract API and a stand-in wg, and the proof
          // in network namespaces (root and wireguard-go; skipped with a message elsewhere).
          include: ['tests/relay/**/*.test.ts'],
          testTimeout: onThisMachine(60_000),
          hookTimeout: onThisMachine(120_000),
        },
      },
      {
        plugins: [drizzleFromCommonJs()],
        test: {
          ...serverProject,
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...isolatedServerFiles],
          // A file's modules (the API's, Fastify's, drizzle's, pg-boss's) are imported once per worker, not
          // once per file: most of a server file's start. Measured in docs/performance.md ("The server files
          // without isolation, adopted").
          isolate: false,
        },
      },
      {
        plugins: [drizzleFromCommonJs()],
        test: {
          ...serverProject,
          name: 'server-isolated',
          include: isolatedServerFiles,
        },
      },
      {
        plugins: [react()],
        test: {
          ...componentsProject,
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...isolatedComponentFiles],
          // One jsdom, React and Mantine per worker instead of per file (tests/components/setup.ts unmounts
          // each test's screen after it).
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: {
          ...componentsProject,
          name: 'components-isolated',
          include: isolatedComponentFiles,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // A page that takes a second longer on a busy machine is no failure: every expect.poll waits up to
          // 15 s for what it waits for (issue 34: its default of 1 s made the suite fail by chance).
          expect: { poll: { timeout: onThisMachine(15_000) } },
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Two files at once (each leasing an API, database and Chromium; the Auth emulator shared, so no
          // file wipes its users). `npm test` runs this project in a Vitest run of its own beside the others
          // (scripts/test.mjs); a single run of every project (`npx vitest run`) takes it after them, in a
          // group of its own, since Vitest gives a group one worker count.
          maxWorkers: 2,
          // A worker runs file after file in one process, keeping its Chromium (tests/support/e2e-suite.ts)
          // and what it imported; no e2e file mocks or stubs (tests/unit/server-isolation.test.ts holds that).
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: onThisMachine(120_000),
          hookTimeout: onThisMachine(300_000),
        },
      },
    ],
  },
});
