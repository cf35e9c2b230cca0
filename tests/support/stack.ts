/**
 * Starts the product's API process (which serves the built SPA) for end-to-end tests: the same entry
 * point `npm start` uses, on a free port, with its own throw-away PGlite data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_WEBHOOK_SECRET } from './payments';
import { onThisMachine } from './machine-slowness';

export interface RunningStack {
  url: string;
  port: number;
  dataDir: string;
  logs: string[];
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, logs: string[], timeoutMs = onThisMachine(60_000)) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${logs.join('')}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the API did not become healthy within ${timeoutMs} ms:\n${logs.join('')}`);
}

/**
 * `startFrom`: a migrated data folder (tests/e2e/global-setup.ts makes one per run) copied in as this API's
 * own, so it starts without PGlite's initdb and the migrations; without it, the API makes its database as
 * `npm start` does on a new machine.
 */
export async function startStack(env: Record<string, string> = {}, { startFrom }: { startFrom?: string } = {}): Promise<RunningStack> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'veil-e2e-'));
  if (startFrom) cpSync(startFrom, dataDir, { recursive: true });
  const logs: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'server', 'main.ts')], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      // Not production: the stack runs the Auth emulator and the local checkout, which production refuses.
      NODE_ENV: 'test',
      // The journeys deliver payment events themselves (tests/support/payments.ts).
      LOCAL_WEBHOOK_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      STATIC_DIR: join(process.cwd(), 'dist'),
      LOG_LEVEL: 'warn',
      // The journeys sign in many times a minute from one address; limits have their own server tests.
      RATE_LIMIT_SIGN_IN: '1000',
      RATE_LIMIT_SCALE: '100',
      // A complete client configuration; tests that sign in point it at their Auth emulator instead.
      FIREBASE_PROJECT_ID: 'demo-veil',
      FIREBASE_API_KEY: 'demo-api-key',
      FIREBASE_AUTH_DOMAIN: 'demo-veil.firebaseapp.com',
      // No mail server here (tests/support/maildev.ts starts one where a test reads mail).
      MAIL: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => logs.push(String(chunk)));
  child.stderr?.on('data', (chunk) => logs.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, logs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    port,
    dataDir,
    logs,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
