/**
 * API processes on a shared PostgreSQL (a schema of their own) and Redis, as several instances behind a
 * load balancer would run: the production entry point (server/main.ts), each on a free loopback port.
 * Used by the two-instance tests and `npm run load`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { freePort } from './stack.ts';
import { onThisMachine } from './machine-slowness.ts';

export interface ApiProcess {
  url: string;
  /** The API's own process id (a bench reads its CPU time from /proc). */
  pid: number;
  logs: string[];
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  signal: (signal: NodeJS.Signals) => void;
  stop: () => Promise<void>;
}

/**
 * How long a spawned API may take to answer: it runs the TypeScript through tsx, which on a busy two-core
 * machine (four test files at once) has taken half a minute, and over a minute on a machine twice as slow
 * (scaled by tests/support/machine-slowness.ts). Past this, startApiProcess fails with the logs.
 */
const API_PROCESS_START_LIMIT_MS = onThisMachine(60_000);

/**
 * The timeout of a test (or hook) that starts an API process itself: the start's own limit, then a minute for
 * the test. A test timeout at or under the start's limit would end the test before the helper could say why.
 */
export const TIMEOUT_WITH_API_PROCESS_START = API_PROCESS_START_LIMIT_MS + onThisMachine(60_000);

export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const root = join(import.meta.dirname, '..', '..');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      // Not production: the production start-up checks would refuse the Auth emulator and local checkout.
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STATIC_DIR: '/nonexistent-static-dir',
      LOG_LEVEL: 'warn',
      // No mail server here (tests/support/maildev.ts starts one where a test reads mail).
      MAIL: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stdout?.on('data', (chunk) => logs.push(String(chunk)));
  child.stderr?.on('data', (chunk) => logs.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + API_PROCESS_START_LIMIT_MS;
  while (!(await fetch(`${url}/api/health`).then((response) => response.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API did not start:\n${logs.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    logs,
    exited,
    signal: (signal) => child.kill(signal),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A DATABASE_URL whose connections all use `schema` (the API needs no other setting for it). */
export function urlWithSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** Why the shared services cannot be used here, or null when PostgreSQL and Redis both answer. */
export async function sharedServicesMissing(databaseUrl: string, redisUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    return `no PostgreSQL at ${databaseUrl} (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `no Redis at ${redisUrl} (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
  return null;
}
