/**
 * `npm test`: the whole suite as two Vitest runs side by side, the end-to-end project in one and every other
 * project in the other (issue 50). One run would take the projects one group after the other (Vitest gives a
 * group one worker count, and the e2e files need two workers where the server files need four), and the
 * server files leave much of the CPU idle while they wait for the Auth emulator, job polls and the timeouts
 * they provoke, which the e2e files' browsers then use: docs/performance.md ("Two runs side by side").
 *
 * The site is built first (when its sources changed), once, since both runs read dist/. The other projects'
 * output streams as it comes; the e2e run's is held and printed whole when the first run ends
 * (scripts/lib/side-by-side.mjs). The exit code is the first failing run's.
 *
 * With arguments (`npm test -- tests/unit/x.test.ts`, `npm test -- --project e2e`) it is one `vitest run`
 * with those arguments, as before; `--node-line` is CI's second Node line (below).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineSlowness, REFERENCE_MS } from './lib/machine-speed.mjs';
import { NODE_LINE_PROJECTS } from './lib/node-line.mjs';
import { runSideBySide } from './lib/side-by-side.mjs';
import { ensureSpaBuilt } from './lib/spa-build.mjs';
import { temporaryFolderInMemory } from './lib/temp-in-memory.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const vitest = (...args) => ({ command: process.execPath, args: [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args] });
const args = process.argv.slice(2);

// The runs' temporary files in memory when /dev/shm has room (scripts/lib/temp-in-memory.mjs), removed at the end.
const inMemory = temporaryFolderInMemory();
const env = inMemory.folder ? { ...process.env, TMPDIR: inMemory.folder } : process.env;
console.log(inMemory.folder ? `[test] temporary files in ${inMemory.folder}` : `[test] temporary files in the system's folder: ${inMemory.reason}`);
process.on('exit', () => inMemory.remove?.());

// How much slower this machine is than the one the budgets and timeouts were set on, measured once here,
// before anything else runs, for both runs and their workers (scripts/lib/machine-speed.mjs).
const slowness = machineSlowness(root, env);
console.log(`[test] this machine's speed: budgets and timeouts ×${slowness} (its measure over the reference's ${REFERENCE_MS} ms, at least 1)`);

const children = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

// CI's second Node line (`npm run test:node-line`): what can differ by Node version, the unit, relay and API
// projects, beside `npm start` end to end once (README, .ci/run).
const nodeLine = args[0] === '--node-line';

if (args.length > 0 && !nodeLine) {
  const plain = vitest(...args);
  const only = spawn(plain.command, plain.args, { stdio: 'inherit', env });
  children.push(only);
  process.exit(await new Promise((resolve) => only.on('exit', (code) => resolve(code ?? 1))));
}

await ensureSpaBuilt(root, (message) => console.log(`[test] ${message}`));

// Each run's reporter writes what failed to a file of its own (tests/support/failure-lines.ts), printed last
// below: CI keeps only the log's tail, and the held run's output would push the shown run's failures out of it.
const failuresFolder = mkdtempSync(join(inMemory.folder ?? tmpdir(), 'failures-'));
process.on('exit', () => rmSync(failuresFolder, { recursive: true, force: true }));
const withFailuresFile = (run, name) => ({ ...run, env: { TEST_FAILURES_FILE: join(failuresFolder, name) } });
const failuresOf = (name) => {
  try {
    return readFileSync(join(failuresFolder, name), 'utf8').trimEnd();
  } catch {
    return '';
  }
};

const run = runSideBySide({
  shown: withFailuresFile(nodeLine ? vitest(...NODE_LINE_PROJECTS.flatMap((project) => ['--project', project])) : vitest('--project', '!e2e'), 'shown'),
  held: withFailuresFile(nodeLine ? vitest('--project', 'e2e', 'tests/e2e/local-start.test.ts') : vitest('--project', 'e2e'), 'held'),
  heading: '[test] the end-to-end run, started beside the one above:',
  // Colours as a terminal shows them, when this is one (the runs' output is piped).
  env: process.stdout.isTTY ? { ...env, FORCE_COLOR: '1' } : env,
});
children.push(...run.children);
const code = await run.done;
let named = false;
for (const [name, title] of [['shown', nodeLine ? 'the unit, relay and API run' : 'the run of every project but e2e'], ['held', 'the end-to-end run']]) {
  const failures = failuresOf(name);
  if (failures) console.log(`\n[test] what failed in ${title} (its report is above):\n${failures}`);
  named ||= Boolean(failures);
}
// A run that ended before its reporter could speak (killed, out of memory, a crash in Vitest itself).
if (code !== 0 && !named) console.log(`\n[test] a run failed without naming a test or a budget: its output above says why`);
// The figure issue 50's goal is about: both runs, the build before them included.
console.log(`\n[test] both runs ended ${Math.round(performance.now() / 1000)} s after npm test started (exit code ${code})`);
process.exit(code);
