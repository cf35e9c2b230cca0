/**
 * Production runs the compiled API (issue 32, item 3): the build writes dist-api/, and `npm run start:api`
 * starts it with node alone (no tsx, no TypeScript), with NODE_ENV=production's checks passed. It migrates
 * a new database from the migrations the build copied beside it, answers /api/live, and starts again on
 * that existing database. Its start-up time is printed (the goal, ≤ 3 s on an idle machine, is measured by
 * `npm run bench:api`, not asserted here, where the machine is shared).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/stack';
import { onThisMachine } from '../support/machine-slowness';

const root = process.cwd();
const dataDir = mkdtempSync(join(tmpdir(), 'veil-compiled-api-'));

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.api.config.ts'], { cwd: root, stdio: 'pipe' });
}, onThisMachine(120_000));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm run start:api` in a process group of its own; resolves once /api/live answers. */
async function startCompiledApi() {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    STATIC_DIR: '/nonexistent-static-dir',
    // What production's checks ask for, without a real Firebase project, Stripe or mail server.
    FIREBASE_PROJECT_ID: 'veil-compiled-build-test',
    PAYMENTS: 'local',
    MAIL: 'off',
    VITE_LOG_RETENTION_DAYS: '14',
    LOG_LEVEL: 'warn',
  };
  for (const name of ['FIREBASE_AUTH_EMULATOR_HOST', 'LOCAL_WEBHOOK_SECRET', 'DATABASE_URL', 'REDIS_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'NODE_OPTIONS']) delete env[name];
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', 'start:api'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  child.stdout.on('data', (chunk) => logs.push(String(chunk)));
  child.stderr.on('data', (chunk) => logs.push(String(chunk)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + onThisMachine(90_000);
  let live: Response | null = null;
  while (!(live = await fetch(`${url}/api/live`).catch(() => null))?.ok) {
    if (child.exitCode !== null || Date.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`the compiled API did not start:\n${logs.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const startupMs = performance.now() - started;
  return {
    url,
    live: (await live.json()) as unknown,
    startupMs,
    /** The processes of the group: npm's shell and node, with their command lines. */
    commandLines: () => execFileSync('ps', ['-o', 'args=', '-g', String(child.pid)], { encoding: 'utf8' }),
    stop: async () => {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

describe('the compiled API (npm run start:api)', () => {
  test('starts from dist-api/ with node alone, migrates a new database, answers /api/live, and starts again on it', async () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:api']).toMatch(/^node .*dist-api\/main\.js$/);
    expect(scripts.build).toContain('vite build --config vite.api.config.ts');

    const first = await startCompiledApi();
    try {
      expect(first.live).toEqual({ ok: true });
      // The database answers: the migrations were found beside the compiled files.
      const health = await fetch(`${first.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true, database: true });
      const node = first.commandLines().split('\n').find((line) => line.includes('dist-api/main.js'));
      expect(node).toBeDefined();
      expect(node).not.toMatch(/tsx|\.ts\b/);
    } finally {
      await first.stop();
    }

    const again = await startCompiledApi();
    try {
      expect(again.live).toEqual({ ok: true });
      console.log(`compiled API: /api/live answered ${(again.startupMs / 1000).toFixed(2)} s after npm run start:api on an existing PGlite database`);
    } finally {
      await again.stop();
    }
  }, onThisMachine(240_000));
});
