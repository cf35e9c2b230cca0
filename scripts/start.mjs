#!/usr/bin/env node
/**
 * The one entry point for running the product locally (`npm start`, `npm run dev`).
 *
 *   npm start     builds the SPA when it is missing or older than its sources, then starts the
 *                 Firebase Auth emulator (demo project, no account needed) and the API, which also
 *                 serves the SPA, on http://localhost:${PORT:-8080}.
 *   npm run dev   the same, but the SPA is served by Vite with hot reload on PORT and the API runs on
 *                 API_PORT (default PORT + 1); Vite forwards /api to it.
 *
 * Customer e-mail goes to maildev, a real mail server that keeps what it receives (issue 21): SMTP on
 * 127.0.0.1:${MAIL_SMTP_PORT:-1025}, its inbox and JSON API on http://127.0.0.1:${MAIL_UI_PORT:-1080}, mails
 * kept in a temporary folder removed at exit. Not started when SMTP_URL is set (your own mail server) or
 * MAIL=off.
 *
 * The Auth emulator listens on FIREBASE_AUTH_EMULATOR_HOST (default 127.0.0.1:9099), and its hub and
 * logging on the next two ports, so two stacks with their own ports (PORT, FIREBASE_AUTH_EMULATOR_HOST,
 * MAIL_SMTP_PORT, MAIL_UI_PORT) run side by side. When an emulator already answers there (one you run
 * yourself), or FIREBASE_USE_EMULATOR=false (a real Firebase project), none is started. The API listens on
 * 127.0.0.1 unless HOST is set.
 * Ctrl-C stops every child cleanly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogFormatter } from './lib/log-lines.mjs';
import { ensureSpaBuilt } from './lib/spa-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 8080);
const apiPort = dev ? Number(process.env.API_PORT ?? port + 1) : port;
const useEmulator = process.env.FIREBASE_USE_EMULATOR !== 'false';
const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099';
const projectId = process.env.FIREBASE_PROJECT_ID ?? 'demo-veil';
const startMaildev = !process.env.SMTP_URL && process.env.MAIL !== 'off';
const mailSmtpPort = Number(process.env.MAIL_SMTP_PORT ?? 1025);
const mailUiPort = Number(process.env.MAIL_UI_PORT ?? 1080);
let mailDirectory = null;
let emulatorDirectory = null;

const children = [];
let stopping = false;

function log(message) {
  console.log(`[veil] ${message}`);
}

/** The API's JSON log as one human line per request (LOG_FORMAT=json: as it is). */
const readable = process.env.LOG_FORMAT !== 'json';

async function answers(url) {
  try {
    return (await fetch(url)).status < 500;
  } catch {
    return false;
  }
}

function run(name, command, args, env = {}, cwd = root) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so Ctrl-C can stop the whole tree (firebase spawns java/node)
  });
  const prefix = (line) => `[${name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) {
    const format = name === 'api' && readable ? createLogFormatter() : (line) => line;
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const shown = line.trim() ? format(line) : null;
        if (shown !== null) console.log(prefix(shown));
      }
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      log(`${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); shutting down.`);
      shutdown(1);
    }
  });
  children.push(child);
  return child;
}

async function waitFor(url, what, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return;
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  process.on('exit', () => {
    if (mailDirectory) rmSync(mailDirectory, { recursive: true, force: true });
    if (emulatorDirectory) rmSync(emulatorDirectory, { recursive: true, force: true });
  });
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  setTimeout(() => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(code);
  }, 5000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.on('exit', r)) : null))).then(
    () => process.exit(code),
  );
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

async function main() {
  if (!dev) await ensureSpaBuilt(root, log);

  // Local by default: the emulator's unsigned tokens and the free checkout must not face the network.
  // NODE_ENV=development unless set: the local product's development calls (npm run billing:advance) need it,
  // and the API run without it (server/main.ts by hand) has none.
  const serverEnv = {
    PORT: String(apiPort),
    HOST: process.env.HOST ?? '127.0.0.1',
    FIREBASE_PROJECT_ID: projectId,
    NODE_ENV: process.env.NODE_ENV || 'development',
  };
  if (useEmulator) {
    const [host, emulatorPort] = emulatorHost.split(':');
    if (await answers(`http://${host}:${emulatorPort}/`)) {
      log(`using the Firebase Auth emulator already answering on ${emulatorHost}`);
    } else {
      log(`starting the Firebase Auth emulator on ${emulatorHost} (project ${projectId})…`);
      // firebase.json's ports are fixed (9099, and the hub's and logging's defaults): a configuration of
      // this run's own, so a second stack does not collide with the first.
      emulatorDirectory = mkdtempSync(join(tmpdir(), 'veil-emulator-'));
      const port = Number(emulatorPort);
      writeFileSync(
        join(emulatorDirectory, 'firebase.json'),
        JSON.stringify({
          emulators: { auth: { host, port }, ui: { enabled: false }, hub: { port: port + 1 }, logging: { port: port + 2 }, singleProjectMode: true },
        }),
      );
      run(
        'auth-emulator',
        process.execPath,
        [join(root, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js'), 'emulators:start', '--only', 'auth', '--project', projectId],
        {},
        emulatorDirectory,
      );
    }
    await waitFor(`http://${host}:${emulatorPort}/`, 'The Firebase Auth emulator');
    serverEnv.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  }

  if (startMaildev) {
    mailDirectory = mkdtempSync(join(tmpdir(), 'veil-maildev-'));
    log(`starting maildev (SMTP 127.0.0.1:${mailSmtpPort}, inbox http://127.0.0.1:${mailUiPort})…`);
    run('maildev', process.execPath, [
      join(root, 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js'),
      '--smtp', String(mailSmtpPort),
      '--ip', '127.0.0.1',
      '--web', String(mailUiPort),
      '--web-ip', '127.0.0.1',
      '--mail-directory', mailDirectory,
    ]);
    await waitFor(`http://127.0.0.1:${mailUiPort}/api/healthz`, 'maildev');
    serverEnv.MAIL_SMTP_PORT = String(mailSmtpPort);
  }

  log('starting the API…');
  run('api', process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], serverEnv);
  await waitFor(`http://127.0.0.1:${apiPort}/api/health`, 'The API');

  if (dev) {
    // The dev server writes the same runtime client configuration the API writes in production.
    const { PORT: _apiPort, ...clientEnv } = serverEnv;
    run('vite', process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--port', String(port), '--strictPort'], {
      ...clientEnv,
      API_PORT: String(apiPort),
    });
    await waitFor(`http://127.0.0.1:${port}/`, 'Vite');
  }

  if (!stopping) {
    log(`ready: http://localhost:${port}  (Ctrl-C stops everything)`);
    if (startMaildev) log(`e-mail inbox: http://127.0.0.1:${mailUiPort}  (every message the product sends lands here)`);
  }
}

main().catch((error) => {
  console.error(`[veil] ${error.message}`);
  shutdown(1);
});
