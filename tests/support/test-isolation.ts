/**
 * Which server test files need a process of their own (issue 50; docs/performance.md, "The server files
 * without isolation, adopted"). Vitest's `isolate: false` runs the next file in the same worker with the
 * modules already loaded: no module import again (most of a server file's start), and nothing reset
 * between files either, neither the module registry, its mocks, the environment, the timers nor the
 * process-wide registrations. A file that changes any of those for the files after it is isolated; the
 * list is derived from the files themselves (here, read by vitest.config.ts at every start), so a new
 * `vi.mock` cannot land among the shared files.
 *
 * A file is read together with the test support modules it imports (relative imports under tests/,
 * followed), since a helper that mocks leaks as much as the file that calls it. The API's own modules are
 * not followed: audited by hand (they keep no module-level state but the Firebase emulator's host, written
 * by the verifier, the same value for every file of the project; and what `startTracing` registers, below).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** What a file may do that outlives it in a shared worker, and why that leaks. */
const LEAKS: ReadonlyArray<{ name: string; pattern: RegExp; why: string }> = [
  {
    name: 'module mock',
    pattern: /\bvi\.(mock|doMock|unmock|doUnmock)\(/,
    why: 'replaces a module: without isolation the mock stays for the files after it, or finds the real module already loaded',
  },
  {
    name: 'stubbed environment or global',
    pattern: /\bvi\.(stubEnv|stubGlobal)\(/,
    why: 'Vitest undoes stubs between tests only when told to, and never between the files of a shared worker',
  },
  {
    name: 'fake timers',
    pattern: /\bvi\.(useFakeTimers|setSystemTime)\(/,
    why: 'fake timers or a set clock left on run into the next file of the worker',
  },
  {
    name: 'tracing',
    pattern: /\bstartTracing\(/,
    why: "registers OpenTelemetry's process-wide tracer provider and patches node:http and pg for the whole process",
  },
  {
    name: 'environment write',
    pattern: /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|\bdelete\s+process\.env\b|Object\.assign\(\s*process\.env\b/,
    why: 'process.env is the worker process\'s: a value written and not put back is what the next file starts with',
  },
];

/** Writes checked by hand and left among the shared files, each with why it does not leak. */
const CHECKED: Readonly<Record<string, { leak: string; why: string }>> = {
  'tests/support/staff.ts': {
    leak: 'environment write',
    why: "FIREBASE_AUTH_EMULATOR_HOST, set to the project's one Auth emulator: what every file of the project sets (the API's verifier writes the same)",
  },
  'tests/server/identity-trust.test.ts': {
    leak: 'environment write',
    why: 'lifts FIREBASE_AUTH_EMULATOR_HOST for one test and puts it back in its `finally`',
  },
};

const RELATIVE_IMPORT = /(?:\bfrom|\bimport\(?)\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The test support modules `file` imports, directly or through each other (relative imports under `testsRoot`). */
function withSupportModules(file: string, testsRoot: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const match of readFileSync(path, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(path), match[1]!);
      if (relative(testsRoot, target).startsWith('..')) continue;
      const found = [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((candidate) => existsSync(candidate) && candidate.match(/\.(ts|tsx|js|mjs)$/));
      if (found) visit(found);
    }
  };
  visit(file);
  return [...seen];
}

/** Why `file` (relative to `root`) needs isolation, one line per leak found; empty when it does not. */
export function isolationReasons(root: string, file: string): string[] {
  const testsRoot = join(root, 'tests');
  const reasons: string[] = [];
  for (const path of withSupportModules(join(root, file), testsRoot)) {
    const name = relative(root, path);
    const text = readFileSync(path, 'utf8');
    for (const leak of LEAKS) {
      if (!leak.pattern.test(text) || CHECKED[name]?.leak === leak.name) continue;
      reasons.push(`${name === file ? '' : `through ${name}: `}${leak.name}: ${leak.why}`);
    }
  }
  return reasons;
}

/** The test files in `dir` (relative to `root`), split into those needing isolation and the rest. */
export function splitByIsolation(root: string, dir: string): { isolated: string[]; shared: string[] } {
  const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => `${dir}/${name}`)
    .sort();
  const isolated = files.filter((file) => isolationReasons(root, file).length > 0);
  return { isolated, shared: files.filter((file) => !isolated.includes(file)) };
}
